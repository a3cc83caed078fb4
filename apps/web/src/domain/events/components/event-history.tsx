import { Card, Table } from 'react-bootstrap';
import type { AuditEntry } from '@bathylog/shared';
import { errorMessage } from '../../../api/client';
import { ErrorAlert } from '../../../components/alerts';
import { EmptyText, LoadingText, statusTexts } from '../../../components/status-text';
import { formatUtc } from '../../../lib/format';
import { useEventHistory } from '../api/event-history';

const shownFields = ['ts', 'event_author', 'event_value', 'event_free_text', 'event_options'] as const;

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    return value
      .map((o: { event_option_name?: string; event_option_value?: string }) =>
        o && typeof o === 'object' && 'event_option_name' in o
          ? `${o.event_option_name}: ${o.event_option_value}`
          : String(o),
      )
      .join(', ');
  }
  return JSON.stringify(value);
}

/** What an entry changed: field, old value, new value (only the fields that differ). */
function changes(entry: AuditEntry): Array<{ field: string; before: string; after: string }> {
  const before = (entry.old_value ?? {}) as Record<string, unknown>;
  const after = (entry.new_value ?? {}) as Record<string, unknown>;
  return shownFields
    .map((field) => ({ field, before: text(before[field]), after: text(after[field]) }))
    .filter((c) => c.before !== c.after);
}

/** Admins: who changed the event and what was there before (docs/screens.md#event-details). */
export function EventHistory({ eventId }: { eventId: string }) {
  const history = useEventHistory(eventId, true);
  return (
    <Card className="mt-2" data-testid="event-history">
      <Card.Header as="h6" className="mb-0">
        History
      </Card.Header>
      <Card.Body className="p-2">
        {history.isError && <ErrorAlert message={errorMessage(history.error)} />}
        {history.isPending && <LoadingText text={statusTexts.loading} />}
        {history.data && history.data.length === 0 && <EmptyText>No changes recorded</EmptyText>}
        {history.data && history.data.length > 0 && (
          <Table size="sm" className="mb-0 small" aria-label="Event history">
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>
              {history.data.map((entry) => (
                <tr key={entry.seq}>
                  <td className="text-nowrap">{formatUtc(entry.at)}</td>
                  <td>{entry.actor_name ?? '—'}</td>
                  <td>{entry.action}</td>
                  <td>
                    {changes(entry).map((c) => (
                      <div key={c.field}>
                        <strong>{c.field}</strong>: {c.before ? <del>{c.before}</del> : null}
                        {c.before && c.after ? ' → ' : null}
                        {c.after}
                      </div>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card.Body>
    </Card>
  );
}
