import { Badge } from 'react-bootstrap';
import { Link } from 'wouter';
import { eventQueue, usePendingEventCounts } from '../../../domain/events/api/event-queue';
import '../event-log.css';

/**
 * Header count of events this browser holds for the server (docs/screens.md#offline-logging).
 * Mounted in the header on every screen, it also keeps the queue running away from the console.
 * Nothing shows when the queue is empty.
 */
export function PendingEventsBadge() {
  const { waiting, failed } = usePendingEventCounts();
  if (waiting === 0 && failed === 0) return null;
  return (
    <Link
      to="/"
      className="nav-link d-flex align-items-center gap-1 pending-badge"
      data-testid="pending-events"
      title="Events kept in this browser until the server has them; click to retry now"
      onClick={() => eventQueue.retryNow()}
    >
      {waiting > 0 && (
        <Badge bg="warning" text="dark">
          <i className="bi bi-cloud-arrow-up-fill" aria-hidden="true" /> {waiting} {waiting === 1 ? 'event' : 'events'}{' '}
          waiting
        </Badge>
      )}
      {failed > 0 && (
        <Badge bg="danger">
          <i className="bi bi-exclamation-triangle-fill" aria-hidden="true" /> {failed} not saved
        </Badge>
      )}
    </Link>
  );
}
