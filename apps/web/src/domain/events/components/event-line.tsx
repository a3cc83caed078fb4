import type { ReactNode } from 'react';
import { ListGroup } from 'react-bootstrap';
import { shipRecordReadOnlyMessage, type LogEvent } from '@bathylog/shared';
import { eventComment } from '../api/events';
import { eventDetailsText } from '../lib/event-format';
import '../events.css';

export interface EventLineProps {
  event: LogEvent;
  /** Opens the event details; the line text is a button when given. */
  onOpen?: (event: LogEvent) => void;
  /** Shows the comment icon ("Add Comment" / "Edit/View Comment"). */
  onComment?: (event: LogEvent) => void;
  /** Shows the trash icon. */
  onDelete?: (event: LogEvent) => void;
  /** Not yet on the server: waiting in the browser's queue, or refused by it. */
  pending?: 'pending' | 'failed';
  /** Extra controls at the right (e.g. discard a failed event). */
  extra?: ReactNode;
  active?: boolean;
}

/**
 * One event in a list (docs/screens.md#event-line): `{ts} {author}: {value} → {options}, free_text: "…"`,
 * the comment never in the line; icons at the right.
 */
export function EventLine({ event, onOpen, onComment, onDelete, pending, extra, active }: EventLineProps) {
  const details = eventDetailsText(event);
  const hasComment = eventComment(event) !== '';
  // A shore server's copy of a ship's event: only its comment may change here.
  const readOnly = event.origin ? shipRecordReadOnlyMessage(event.origin.ship_name) : undefined;
  const content = (
    <>
      {event.ts} <strong className="fst-italic">{event.event_author}</strong>: {event.event_value}
      {details && (
        <>
          <i className="bi bi-arrow-right event-line-arrow" aria-hidden="true" />
          <span className="visually-hidden">--&gt; </span>
          {details}
        </>
      )}
      {pending === 'pending' && (
        <span className="event-pending ms-2" data-testid="event-pending">
          <i className="bi bi-hourglass-split" aria-hidden="true" /> pending
        </span>
      )}
      {pending === 'failed' && (
        <span className="event-failed ms-2" data-testid="event-failed">
          <i className="bi bi-exclamation-triangle-fill" aria-hidden="true" /> not saved
        </span>
      )}
    </>
  );
  return (
    <ListGroup.Item
      className={pending ? 'event-line-pending' : undefined}
      active={active}
      data-testid="event-line"
      data-event-id={event.id}
    >
      {onOpen ? (
        <button type="button" className="event-line-text" onClick={() => onOpen(event)}>
          {content}
        </button>
      ) : (
        <span className="event-line-text">{content}</span>
      )}
      {(onDelete || onComment || extra) && (
        <span className="event-line-icons">
          {extra}
          {onDelete && (
            <button
              type="button"
              className={`event-icon ${readOnly ? 'text-secondary' : 'text-danger'}`}
              title={readOnly ?? 'Delete this event'}
              aria-label="Delete this event"
              aria-disabled={readOnly ? true : undefined}
              onClick={readOnly ? undefined : () => onDelete(event)}
            >
              <i className="bi bi-trash-fill" aria-hidden="true" />
            </button>
          )}
          {onComment && (
            <button
              type="button"
              className={`event-icon${hasComment ? '' : ' event-comment-add'}`}
              title={hasComment ? 'Edit/View Comment' : 'Add Comment'}
              aria-label={hasComment ? 'Edit/View Comment' : 'Add Comment'}
              onClick={() => onComment(event)}
            >
              {hasComment ? (
                <i className="bi bi-chat-left-text-fill" aria-hidden="true" />
              ) : (
                <>
                  <i className="bi bi-chat-left" aria-hidden="true" />
                  <i className="bi bi-plus-circle-fill event-comment-plus" aria-hidden="true" />
                </>
              )}
            </button>
          )}
        </span>
      )}
    </ListGroup.Item>
  );
}
