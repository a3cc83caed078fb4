import { Card } from 'react-bootstrap';
import type { LogEvent } from '@bathylog/shared';
import { statusTexts } from '../../../components/status-text';

/** The selected event's value left, `author @ ts` right (docs/screens.md#review-replay). */
export function EventHeaderCard({ event, loading }: { event: LogEvent | null; loading: boolean }) {
  return (
    <Card className="mb-2" data-testid="review-event-header">
      <Card.Header className="d-flex justify-content-between flex-wrap gap-2">
        {event ? (
          <>
            <span>{event.event_value}</span>
            <span>
              <strong className="fst-italic">{event.event_author}</strong> @ {event.ts}
            </span>
          </>
        ) : (
          <span>{loading ? statusTexts.loading : statusTexts.noEvents}</span>
        )}
      </Card.Header>
    </Card>
  );
}
