import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copiedRecordProblem, type CopiedRecordType } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import type { AuthContext } from '../../plugins/auth.js';
import { FeedReader } from './feed-reader.js';
import { SyncFeedService } from './sync-feed.service.js';
import { isTableType } from './sync-records.js';

/**
 * The shore checks every record a ship sends with the API's own schemas
 * (docs/ship-to-shore.md#refused-changes): a check that refused what a real ship stores would drop
 * a vessel's data. Every record of the demo cruise, as a ship's feed carries it, passes; the
 * records the check exists for do not.
 */
describe.each(engines)('records from a ship on %s', (engine) => {
  let ship: TestApp;
  beforeAll(async () => {
    // Demo mode loads the demo cruise: a dive of 4,540 events, their aux data, the templates.
    ship = await createTestApp(engine, { mode: 'demo' });
  }, 120_000);
  afterAll(async () => ship?.close());

  it('every record of the demo cruise, as the feed sends it, passes', async () => {
    const feed = new SyncFeedService(ship.ctx);
    // An admin reads the whole feed, as a full follower does.
    const reader = await FeedReader.of(ship.ctx, { isAdmin: true, key: null } as unknown as AuthContext);
    const seen: Record<string, number> = {};
    const problems: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await feed.changes(reader, after, 16 * 1024 * 1024);
      for (const c of page.changes) {
        if (c.op !== 'upsert' || !isTableType(c.record_type)) continue;
        seen[c.record_type] = (seen[c.record_type] ?? 0) + 1;
        const problem = copiedRecordProblem(c.record_type, c.record);
        if (problem) problems.push(`${c.record_type} ${c.record_id}: ${problem}`);
      }
      after = page.next;
      if (!page.more) break;
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(seen.event).toBeGreaterThan(5000);
    expect(seen.event_aux_data).toBeGreaterThan(5000);
    expect(seen.cruise).toBeGreaterThan(0);
    expect(seen.lowering).toBeGreaterThan(0);
    expect(seen.event_template).toBeGreaterThan(0);
  }, 120_000);
});

describe('a malformed record', () => {
  const event = {
    id: '5981f167212b348aed7fa9f5',
    ts: 1_700_000_000_000,
    event_author: 'pilot',
    event_value: 'FISH',
    event_options: '[]',
    event_free_text: '',
    created_by: null,
  };
  const aux = { id: '5981f167212b348aed7fa9f6', event_id: event.id, data_source: 'nav', data_array: '[]' };
  const problem = (type: CopiedRecordType, record: unknown) => copiedRecordProblem(type, record);

  it('is refused with the field named', () => {
    expect(problem('event', event)).toBeNull();
    expect(problem('event_aux_data', aux)).toBeNull();
    expect(problem('event', { ...event, ts: 'yesterday' })).toMatch(/"ts"/);
    expect(problem('event', { ...event, ts: 1e300 })).toMatch(/"ts"/);
    expect(problem('event', { ...event, event_value: { x: 1 } })).toMatch(/"event_value"/);
    expect(problem('event', { ...event, event_value: '' })).toMatch(/"event_value"/);
    expect(problem('event', { ...event, event_options: '[oops' })).toMatch(/event_options/);
    expect(problem('event', { ...event, event_options: '{"a":1}' })).toMatch(/event_options/);
    expect(problem('event', { ...event, id: 'not-an-id' })).toMatch(/"id"/);
    expect(problem('event', null)).not.toBeNull();
    expect(problem('event_aux_data', { ...aux, data_array: '{"a":1}' })).toMatch(/data_array/);
    expect(problem('event_aux_data', { ...aux, data_array: { a: 1 } })).toMatch(/data_array/);
    expect(problem('event_aux_data', { ...aux, data_array: '[{"data_name":"x","data_value":{}}]' })).toMatch(
      /data_array/,
    );
  });
});
