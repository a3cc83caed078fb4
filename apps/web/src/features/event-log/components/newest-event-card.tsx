import { Card } from 'react-bootstrap';
import type { LogEvent } from '@bathylog/shared';
import { useEventExport } from '../../../domain/events/api/events';
import { DataCards, hasDataCards } from '../../../domain/events/components/data-cards';
import { useSettings } from '../../../lib/settings';

/**
 * The newest event in full above the history (docs/screens.md#newest-event-card): value left, `author @ ts`
 * and an eye to hide it right; then its data cards (images, aux data, options, text, comment).
 * Nothing at all when there is no event.
 */
export function NewestEventCard({ event, onHide }: { event: LogEvent | undefined; onHide: () => void }) {
  const settings = useSettings();
  const details = useEventExport(event?.id);
  if (!event) return null;
  // Until the aux data arrives, show what the list already knows.
  const full = details.data?.id === event.id ? details.data : { ...event, aux_data: [] };
  return (
    <Card className="mb-2" data-testid="newest-event-card">
      <Card.Header className="d-flex justify-content-between align-items-center flex-wrap gap-2">
        <span>{event.event_value}</span>
        <span>
          <strong className="fst-italic">{event.event_author}</strong> @ {event.ts}{' '}
          <button
            type="button"
            className="header-icon"
            title="Hide new event details"
            aria-label="Hide new event details"
            onClick={onHide}
          >
            <i className="bi bi-eye-fill" aria-hidden="true" />
          </button>
        </span>
      </Card.Header>
      {hasDataCards(full, settings) && (
        <Card.Body className="p-2">
          <DataCards event={full} removableAttachments />
        </Card.Body>
      )}
    </Card>
  );
}
