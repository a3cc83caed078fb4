import type { LogEvent } from '@bathylog/shared';
import type { QueuedOp } from '../../../lib/offline-queue';
import { queuedEvent } from '../../../domain/events/api/event-queue';

export interface HistoryRow {
  event: LogEvent;
  /** Waiting in the browser's queue, or refused by the server. */
  pending?: 'pending' | 'failed';
  /** Why the server refused it (failed rows). */
  error?: string;
  /** Queue entry of a failed create, to discard it. */
  seq?: number;
}

function applyUpdate(event: LogEvent, body: Record<string, unknown> | undefined): LogEvent {
  const patch = (body ?? {}) as Partial<LogEvent>;
  return {
    ...event,
    ...(patch.ts !== undefined ? { ts: patch.ts } : {}),
    ...(patch.event_options !== undefined ? { event_options: patch.event_options } : {}),
    ...(patch.event_free_text !== undefined ? { event_free_text: patch.event_free_text } : {}),
    ...(patch.event_value !== undefined ? { event_value: patch.event_value } : {}),
  };
}

/**
 * The lines of the history: the server's page, plus what this browser has not sent yet (on the
 * first page). Queued deletes hide their event, queued updates show on it, queued creates appear
 * as pending lines, and events just sent stay visible until the next fetch has them. Newest first.
 */
export function historyRows(input: {
  serverEvents: readonly LogEvent[];
  ops: readonly QueuedOp[];
  recentlySent: readonly LogEvent[];
  firstPage: boolean;
}): HistoryRow[] {
  const { serverEvents, ops, recentlySent, firstPage } = input;
  const open = ops.filter((op) => !op.failed);
  const deleted = new Set(open.filter((op) => op.kind === 'delete').map((op) => op.eventId));
  const updates = new Map<string, QueuedOp[]>();
  for (const op of open) {
    if (op.kind !== 'update') continue;
    const list = updates.get(op.eventId) ?? [];
    list.push(op);
    updates.set(op.eventId, list);
  }
  const withUpdates = (event: LogEvent): { event: LogEvent; changed: boolean } => {
    const list = updates.get(event.id);
    if (!list) return { event, changed: false };
    return { event: list.reduce((e, op) => applyUpdate(e, op.body), event), changed: true };
  };

  const rows: HistoryRow[] = [];
  const seen = new Set<string>();
  for (const event of serverEvents) {
    if (deleted.has(event.id) || seen.has(event.id)) continue;
    seen.add(event.id);
    const { event: shown, changed } = withUpdates(event);
    rows.push(changed ? { event: shown, pending: 'pending' } : { event: shown });
  }
  if (firstPage) {
    for (const event of recentlySent) {
      if (deleted.has(event.id) || seen.has(event.id)) continue;
      seen.add(event.id);
      rows.push({ event: withUpdates(event).event });
    }
    for (const op of ops) {
      const event = queuedEvent(op);
      if (!event || seen.has(event.id) || (!op.failed && deleted.has(event.id))) continue;
      seen.add(event.id);
      rows.push(
        op.failed
          ? { event, pending: 'failed', error: op.failed, seq: op.seq }
          : { event: withUpdates(event).event, pending: 'pending' },
      );
    }
  }
  // ISO timestamps of one format sort as text; the sort is stable for equal times.
  return rows.sort((a, b) => (a.event.ts < b.event.ts ? 1 : a.event.ts > b.event.ts ? -1 : 0));
}
