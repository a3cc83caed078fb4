import { Card, Modal } from 'react-bootstrap';
import { ModalHeader } from '../../../components/modal-parts';
import { errorMessage } from '../../../api/client';
import { ErrorAlert } from '../../../components/alerts';
import { LoadingText, statusTexts } from '../../../components/status-text';
import { useEventExport } from '../api/events';
import { useAuth } from '../../../lib/auth';
import { FromShip } from '../../records/components/from-ship';
import { DataCards } from './data-cards';
import { EventHistory } from './event-history';
import { VideoLinks } from '../../video/video-links';
import { GrabFrameButton } from '../../video/grab-frame-button';

/**
 * "Event Details:" (docs/screens.md#event-details): the event with its aux data from event_exports/{id};
 * a header card (value left, `author @ ts` right), then the data cards, and for admins the event's
 * history from the audit trail. Close button only.
 */
export function EventDetailsModal({ eventId, onHide }: { eventId: string | null; onHide: () => void }) {
  const query = useEventExport(eventId);
  const event = query.data;
  // The change history is for admins; the audit trail is admin-only on the server too.
  const auth = useAuth();
  const isAdmin = auth.hasRole('admin');
  // Frames become the event's aux data: the roles that change any event's aux data.
  const mayGrab = auth.hasRole('admin', 'event_manager');
  return (
    <Modal show={!!eventId} onHide={onHide} size="lg" aria-labelledby="event-details-title">
      <ModalHeader id="event-details-title">Event Details:</ModalHeader>
      <Modal.Body>
        {query.isError && <ErrorAlert message={errorMessage(query.error)} />}
        {!event && !query.isError && <LoadingText text={statusTexts.loading} />}
        {event && (
          <>
            <Card className="mb-2" data-testid="event-details-header">
              <Card.Header className="d-flex justify-content-between flex-wrap gap-2">
                <span>{event.event_value}</span>
                <span>
                  <strong className="fst-italic">{event.event_author}</strong> @ {event.ts}
                </span>
              </Card.Header>
              {event.origin && (
                <Card.Body className="py-2">
                  <FromShip origin={event.origin} className="mb-0" />
                </Card.Body>
              )}
            </Card>
            {/* A copied event's pictures belong to the ship: nothing to remove here. */}
            <DataCards event={event} layout="modal" removableAttachments={!event.origin} />
            <VideoLinks links={event.video} className="small mb-2" />
            {mayGrab && !event.origin && event.video && event.video.length > 0 && (
              <GrabFrameButton eventId={event.id} />
            )}
            {isAdmin && <EventHistory eventId={event.id} />}
          </>
        )}
      </Modal.Body>
    </Modal>
  );
}
