import { useEffect, useState } from 'react';
import { Card, Col, Form, ListGroup, Row } from 'react-bootstrap';
import { capabilityRoles, type LogEvent, type Role } from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { useLiveInvalidation } from '../../api/use-realtime';
import { ErrorAlert } from '../../components/alerts';
import { ConfirmModal } from '../../components/confirm-modal';
import { Pagination } from '../../components/pagination';
import { RoleGate } from '../../components/role-gate';
import { EmptyText, LoadingText, statusTexts } from '../../components/status-text';
import { useAuth } from '../../lib/auth';
import { useSettings } from '../../lib/settings';
import { eventKeys, useDeleteEvent, useEventCount, useEvents } from '../../domain/events/api/events';
import { useEventWindow } from '../../domain/events/api/event-window';
import { CommentModal } from '../../domain/events/components/comment-modal';
import { EventDetailsModal } from '../../domain/events/components/event-details-modal';
import { EventLine } from '../../domain/events/components/event-line';
import { ExportDropdown } from '../../domain/events/components/export-dropdown';
import { EventFilterCard } from '../../domain/events/components/event-filter-card';
import { emptyEventFilter, eventFilterQuery, type EventFilterForm } from '../../domain/events/lib/event-filter';

/** Filtered events page size (docs/screens.md#page-sizes). */
export const managementPageSize = 15;
/** Who opens the screen (docs/screens.md#system-management-menu). */
export const eventManagementRoles: Role[] = capabilityRoles.eventManagement;
/** Who deletes events on it (docs/screens.md#deleting-events). */
export const eventDeleteRoles: Role[] = capabilityRoles.deleteAnyEvent;

function EventManagement() {
  const auth = useAuth();
  const settings = useSettings();
  const eventWindow = useEventWindow();
  const [form, setForm] = useState<EventFilterForm>(emptyEventFilter);
  // Hide ASNAP: one wording and polarity on every screen (docs/screens.md#hide-asnap).
  const [hideAsnap, setHideAsnap] = useState(true);
  const [incompleteOnly, setIncompleteOnly] = useState(false);
  const [page, setPage] = useState(1);
  const [detailsId, setDetailsId] = useState<string | null>(null);
  const [commentFor, setCommentFor] = useState<LogEvent | null>(null);
  const [deleting, setDeleting] = useState<LogEvent | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteEvent();

  const filter = {
    ...eventFilterQuery(form, { hideAsnap, min: eventWindow.startTS }),
    ...(incompleteOnly ? { completeness: 'incomplete' as const } : {}),
  };
  const list = useEvents(
    { ...filter, sort: 'newest', offset: (page - 1) * managementPageSize, limit: managementPageSize },
    { enabled: eventWindow.ready },
  );
  const count = useEventCount(filter, { enabled: eventWindow.ready });
  // New, changed and deleted events by anyone move the list, the count and the export cap live
  // (docs/screens.md#event-management); a burst refetches at most twice a second.
  useLiveInvalidation(['newEvents', 'updateEvents', 'deleteEvents'], [eventKeys.counts(), eventKeys.lists()], {
    coalesceMs: 500,
  });
  const total = count.data ?? 0;
  const canDelete = auth.hasRole(...eventDeleteRoles);

  // A delete that empties the last page goes back a page, never to an empty list.
  useEffect(() => {
    if (count.data === undefined || page === 1) return;
    const pages = Math.max(1, Math.ceil(count.data / managementPageSize));
    if (page > pages) setPage(pages);
  }, [count.data, page]);

  const limit = settings.eventExportLimit;
  const exportBlocked =
    total > limit
      ? `Export is not available for more than ${limit.toLocaleString('en-US')} events: narrow the filter`
      : total === 0
        ? 'No events to export'
        : null;

  const confirmDelete = () => {
    if (!deleting) return;
    const event = deleting;
    remove.mutate(event.id, {
      onSuccess: () => setDeleting(null),
      onError: (err) => {
        setDeleting(null);
        setError(errorMessage(err));
      },
    });
  };

  const events = list.data ?? [];
  return (
    <Row className="g-3" data-testid="event-management-screen">
      <Col lg={9}>
        <ErrorAlert message={error} onClose={() => setError(null)} />
        {list.isError && <ErrorAlert message={errorMessage(list.error)} />}
        <Card>
          <Card.Header className="d-flex justify-content-between align-items-center flex-wrap gap-2">
            <span>Filtered Events</span>
            <span className="d-flex align-items-center gap-3">
              <Form.Check
                type="switch"
                id="hide-asnap"
                label="Hide ASNAP"
                checked={hideAsnap}
                onChange={(e) => {
                  setHideAsnap(e.target.checked);
                  setPage(1);
                }}
              />
              <Form.Check
                type="switch"
                id="incomplete-only"
                label="Incomplete only"
                title="Only events missing required aux data"
                checked={incompleteOnly}
                onChange={(e) => {
                  setIncompleteOnly(e.target.checked);
                  setPage(1);
                }}
              />
              <ExportDropdown
                filter={filter}
                disabledReason={count.isPending ? 'Counting events…' : exportBlocked}
                onError={setError}
              />
            </span>
          </Card.Header>
          {!eventWindow.ready || (list.isPending && !list.data) ? (
            <LoadingText text={statusTexts.loading} />
          ) : events.length === 0 && list.isError ? null : events.length === 0 ? (
            <EmptyText>{statusTexts.noEvents}</EmptyText>
          ) : (
            <ListGroup variant="flush" className="event-list" data-testid="filtered-events">
              {events.map((event) => (
                <EventLine
                  key={event.id}
                  event={event}
                  onOpen={(e) => setDetailsId(e.id)}
                  onDelete={canDelete ? setDeleting : undefined}
                  onComment={setCommentFor}
                />
              ))}
            </ListGroup>
          )}
        </Card>
        <Pagination page={page} total={total} pageSize={managementPageSize} onChange={setPage} label="Event pages" />
      </Col>
      <Col lg={3}>
        <EventFilterCard
          bounds={() => ({ min: eventWindow.startTS, max: new Date().toISOString() })}
          onApply={(next) => {
            setForm(next);
            setPage(1);
          }}
        />
      </Col>
      <EventDetailsModal eventId={detailsId} onHide={() => setDetailsId(null)} />
      <CommentModal event={commentFor} onHide={() => setCommentFor(null)} />
      <ConfirmModal
        show={!!deleting}
        body="Are you sure you want to delete this event?"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onHide={() => setDeleting(null)}
      />
    </Row>
  );
}

/** /event_management: the filtered event search (docs/screens.md#event-management). */
export function EventManagementScreen() {
  return (
    <RoleGate roles={eventManagementRoles}>
      <EventManagement />
    </RoleGate>
  );
}
