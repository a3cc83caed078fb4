import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/database.js';
import { engines, openTestDatabase } from '../../../test/test-app.js';
import { insertEvents } from '../../../test/table-fixtures.js';
import { buildEventFilter, globalWindow, type FilterQuery } from '../events/event-filter.js';
import { EventSearch } from '../events/event-search.js';
import { EventAccess, mergeWindows } from './event-access.js';

/**
 * The event rule's windows and the SQL it becomes: every query shape (ts-index pages and chunks,
 * the substring index, per-day counts) leaves the hidden windows out, and pages still run on the
 * indexes. Route behaviour: apps/server/test/event-access.test.ts.
 */
describe('event access windows', () => {
  it('merges overlapping and touching windows, and answers maySee and narrow from them', () => {
    expect(
      mergeWindows([
        { lo: 50, hi: 60 },
        { lo: 10, hi: 20 },
        { lo: 15, hi: 30 },
        { lo: 31, hi: 40 },
      ]),
    ).toEqual([
      { lo: 10, hi: 40 },
      { lo: 50, hi: 60 },
    ]);
    const access = EventAccess.of([
      { lo: 10, hi: 20 },
      { lo: 50, hi: 60 },
    ]);
    expect([9, 10, 20, 21, 49, 50, 60, 61].map((ts) => access.maySee(ts))).toEqual([
      true,
      false,
      false,
      true,
      true,
      false,
      false,
      true,
    ]);
    expect(access.narrow(15, 55)).toEqual({ lo: 21, hi: 49 });
    expect(access.narrow(0, 100)).toEqual({ lo: 0, hi: 100 });
    expect(access.narrow(12, 18).lo).toBeGreaterThan(access.narrow(12, 18).hi);
    expect(EventAccess.of([]).seesEverything).toBe(true);
    expect(() => access.assertMayWriteAt(55)).toThrow(/may not open/);
  });
});

describe.each(engines)('event access in SQL on %s', (engine) => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await drop?.();
    drop = undefined;
  });

  it('leaves hidden windows out of pages, chunks, fulltext and counts, on the indexes', async () => {
    const test = await openTestDatabase(engine);
    drop = test.drop;
    const { database } = test;
    await migrateToLatest(database);
    const day = 86_400_000;
    // Five days of events every hour; the third day is hidden, and so is the last hour.
    const events = Array.from({ length: 5 * 24 }, (_, i) => ({
      ts: i * 3_600_000 + 1000,
      event_value: i % 4 === 0 ? 'ASNAP' : 'FISH',
      event_free_text: i % 2 === 0 ? 'an octopus' : 'a crab',
    }));
    await insertEvents(database.db, events);
    const access = EventAccess.of([
      { lo: 2 * day, hi: 3 * day - 1 },
      { lo: 5 * day - 3_600_000, hi: 5 * day },
    ]);
    const visible = events.filter((e) => access.maySee(e.ts));
    const search = new EventSearch(database.db, database.dialect);
    const window = globalWindow(10 * day);
    const resolve = (query: FilterQuery) => search.resolve(buildEventFilter(query, window, 'substring', access));
    const expected = (match: (e: (typeof events)[number]) => boolean) => visible.filter(match).length;

    const cases: Array<[FilterQuery, (e: (typeof events)[number]) => boolean]> = [
      [{}, () => true],
      [{ value: ['!ASNAP'] }, (e) => e.event_value !== 'ASNAP'],
      [{ fulltext: ['octopus'] }, (e) => e.event_free_text.includes('octopus')],
      [
        { fulltext: ['octopus'], value: ['!ASNAP'] },
        (e) => e.event_free_text.includes('octopus') && e.event_value !== 'ASNAP',
      ],
      [{ freetext: ['crab'] }, (e) => e.event_free_text.includes('crab')],
    ];
    for (const [query, match] of cases) {
      const resolved = await resolve(query);
      const label = JSON.stringify(query);
      expect(await search.count(resolved), label).toBe(expected(match));
      const page = await search.page(resolved, { order: 'desc', offset: 0, limit: 1000 });
      expect(page.length, label).toBe(expected(match));
      expect(
        page.every((e) => access.maySee(e.ts)),
        label,
      ).toBe(true);
      const chunk = await search.chunk(resolved, { order: 'asc', offset: 0, limit: 1000 });
      const check = search.rowCheck(resolved);
      expect(chunk.filter((e) => !check || check(e)).length, label).toBe(expected(match));
    }
    // A range wholly inside a hidden window matches nothing.
    const inside = await search.resolve(
      buildEventFilter({ startTS: 2 * day + 1, stopTS: 2 * day + 5 * 3_600_000 }, window, 'substring', access),
    );
    expect(inside.none).toBe(true);

    // The hidden windows do not take pages off their indexes.
    const plan = await search.explain(await resolve({ value: ['!ASNAP'] }), 'page', 'desc', 20);
    expect(plan).toMatch(
      database.dialect === 'sqlite' ? /USING INDEX events_ts_value_idx/ : /events_ts_value_idx|events_value_ts_idx/,
    );
  });
});
