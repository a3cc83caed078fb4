import { useState } from 'react';
import { Card, Col, Form, ListGroup, Row } from 'react-bootstrap';
import { capabilityRoles, type LogEvent } from '@bathylog/shared';
import { errorMessage } from '../../../api/client';
import { ErrorAlert } from '../../../components/alerts';
import { Pagination, pageSlice } from '../../../components/pagination';
import { EmptyText, LoadingText, statusTexts } from '../../../components/status-text';
import { useAuth } from '../../../lib/auth';
import { CommentModal } from '../../../domain/events/components/comment-modal';
import { EventDetailsModal } from '../../../domain/events/components/event-details-modal';
import { EventLine } from '../../../domain/events/components/event-line';
import { ExportDropdown } from '../../../domain/events/components/export-dropdown';
import { EventFilterCard } from '../../../domain/events/components/event-filter-card';
import { reviewPageSize, type Review } from '../hooks/use-review';
import { reviewActions } from '../review-store';

/** The review filter's fields (docs/screens.md#filtered-events-and-filter). */
const reviewFilterFields = ['fulltext', 'author', 'start', 'stop'] as const;

/** The Hide ASNAP switch of the review store (lists and gallery). */
export function HideAsnapSwitch({ checked, onToggle }: { checked: boolean; onToggle?: () => void }) {
  return (
    <Form.Check
      type="switch"
      id="review-hide-asnap"
      label="Hide ASNAP"
      className="mb-0 small"
      checked={checked}
      onChange={(e) => {
        onToggle?.();
        reviewActions.setHideAsnap(e.target.checked);
      }}
    />
  );
}

/**
 * The lower row of Replay and Map (docs/screens.md#filtered-events-and-filter): "Filtered Events"
 * (9/12) with Hide ASNAP and the export menu, 10 lines per page, the selected one highlighted;
 * comment add/edit for admin and event_logger, "View Details" (map, and for everyone else) opens
 * the details modal; "Event Filter" (3/12) with times clamped to the lowering. `onUserAction` is
 * called before anything the user does here (the replay pauses).
 */
export function ReviewEvents({
  review,
  viewDetails,
  onUserAction,
}: {
  review: Review;
  /** Show the "View Details" icon on every line (map). */
  viewDetails?: boolean;
  onUserAction?: () => void;
}) {
  const auth = useAuth();
  const [commentFor, setCommentFor] = useState<LogEvent | null>(null);
  const [detailsId, setDetailsId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const canComment = auth.hasRole(...capabilityRoles.reviewComment);
  const act = onUserAction ?? (() => undefined);
  const { events, list, lowering } = review;
  const pageEvents = pageSlice(events, review.page, reviewPageSize);
  const first = (review.page - 1) * reviewPageSize;

  const detailsIcon = (event: LogEvent) => (
    <button
      type="button"
      className="event-icon"
      title="View Details"
      aria-label="View Details"
      onClick={() => {
        act();
        setDetailsId(event.id);
      }}
    >
      <i className="bi bi-window" aria-hidden="true" />
    </button>
  );

  return (
    <Row className="g-2">
      <Col lg={9}>
        <Card data-testid="filtered-events">
          <Card.Header className="d-flex justify-content-between align-items-center">
            <span>Filtered Events</span>
            <span className="d-flex align-items-center gap-3">
              <HideAsnapSwitch checked={review.store.hideAsnap} onToggle={act} />
              <ExportDropdown
                filter={review.query}
                scope={{ kind: 'lowering', id: review.loweringId }}
                prefix={lowering.data?.lowering_id}
                onError={setError}
              />
            </span>
          </Card.Header>
          <ErrorAlert message={error ?? (list.isError ? errorMessage(list.error) : null)} />
          {review.listPending ? (
            <LoadingText text={statusTexts.loading} />
          ) : events.length === 0 ? (
            <EmptyText>{statusTexts.noEvents}</EmptyText>
          ) : (
            <ListGroup variant="flush" className="event-list review-event-list">
              {pageEvents.map((event, i) => (
                <EventLine
                  key={event.id}
                  event={event}
                  active={first + i === review.index}
                  onOpen={() => {
                    act();
                    review.selectIndex(first + i);
                  }}
                  onComment={
                    canComment
                      ? (e) => {
                          act();
                          setCommentFor(e);
                        }
                      : undefined
                  }
                  extra={viewDetails || !canComment ? detailsIcon(event) : undefined}
                />
              ))}
            </ListGroup>
          )}
        </Card>
        <Pagination
          page={review.page}
          total={events.length}
          pageSize={reviewPageSize}
          label="Filtered events pages"
          onChange={(page) => {
            act();
            review.selectPage(page);
          }}
        />
      </Col>
      <Col lg={3}>
        <EventFilterCard
          key={review.loweringId}
          fields={reviewFilterFields}
          initial={review.store.filter}
          bounds={() => ({
            min: lowering.data?.start_ts,
            max: lowering.data?.stop_ts ?? new Date().toISOString(),
          })}
          onApply={(form) => {
            act();
            review.setFilter(form);
          }}
        />
      </Col>
      <CommentModal event={commentFor} onHide={() => setCommentFor(null)} />
      <EventDetailsModal eventId={detailsId} onHide={() => setDetailsId(null)} />
    </Row>
  );
}
