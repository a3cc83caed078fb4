import { describe, expect, it } from 'vitest';
import type { LogEvent } from '@bathylog/shared';
import type { QueuedOp } from '../../../lib/offline-queue';
import { historyRows } from './history-rows';

const ev = (id: string, ts: string, extra: Partial<LogEvent> = {}): LogEvent => ({
  id,
  ts,
  event_author: 'a',
  event_value: 'V',
  event_options: [],
  event_free_text: '',
  ...extra,
});
const op = (
  seq: number,
  kind: QueuedOp['kind'],
  eventId: string,
  body?: Record<string, unknown>,
  extra: Partial<QueuedOp> = {},
): QueuedOp => ({
  seq,
  kind,
  eventId,
  body,
  queuedAt: 0,
  attempts: 0,
  ...extra,
});

describe('history rows', () => {
  const server = [ev('s2', '2023-01-02T00:00:00.000Z'), ev('s1', '2023-01-01T00:00:00.000Z')];

  it('puts queued events on the first page as pending, newest first', () => {
    const rows = historyRows({
      serverEvents: server,
      ops: [op(1, 'create', 'p1', { ts: '2023-01-03T00:00:00.000Z', event_value: 'FREE_FORM', event_free_text: 'hi' })],
      recentlySent: [],
      firstPage: true,
    });
    expect(rows.map((r) => [r.event.id, r.pending])).toEqual([
      ['p1', 'pending'],
      ['s2', undefined],
      ['s1', undefined],
    ]);
    expect(rows[0]!.event.event_free_text).toBe('hi');
  });

  it('shows nothing queued on later pages', () => {
    const rows = historyRows({
      serverEvents: server,
      ops: [op(1, 'create', 'p1', { ts: '2030-01-01T00:00:00.000Z' })],
      recentlySent: [],
      firstPage: false,
    });
    expect(rows.map((r) => r.event.id)).toEqual(['s2', 's1']);
  });

  it('hides events with a queued delete, shows queued updates, keeps failed creates with their error', () => {
    const rows = historyRows({
      serverEvents: server,
      ops: [
        op(1, 'delete', 's1'),
        op(2, 'update', 's2', { event_free_text: 'edited' }),
        op(3, 'create', 'bad', { ts: '2023-01-05T00:00:00.000Z' }, { failed: 'nope' }),
      ],
      recentlySent: [],
      firstPage: true,
    });
    expect(rows.map((r) => [r.event.id, r.pending, r.error])).toEqual([
      ['bad', 'failed', 'nope'],
      ['s2', 'pending', undefined],
    ]);
    expect(rows[1]!.event.event_free_text).toBe('edited');
  });

  it('keeps a just-sent event until the server list has it, without doubles', () => {
    const sent = ev('n1', '2023-01-04T00:00:00.000Z');
    expect(
      historyRows({ serverEvents: server, ops: [], recentlySent: [sent], firstPage: true }).map((r) => r.event.id),
    ).toEqual(['n1', 's2', 's1']);
    expect(
      historyRows({ serverEvents: [sent, ...server], ops: [], recentlySent: [sent], firstPage: true }),
    ).toHaveLength(3);
  });
});
