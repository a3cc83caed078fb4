import { afterEach, describe, expect, it } from 'vitest';
import { Migrator, sql, type Kysely, type MigrationProvider } from 'kysely';
import { migrateToLatest } from '../../db/database.js';
import { migrationsFor } from '../../db/migrations/index.js';
import type { DB } from '../../db/schema.js';
import { engines, openTestDatabase } from '../../../test/test-app.js';
import { insertEvents } from '../../../test/table-fixtures.js';
import { newObjectId } from '@bathylog/shared';
import { buildEventFilter, globalWindow, type FilterQuery } from './event-filter.js';
import { EventSearch } from './event-search.js';
import { EventsRepository } from './events.repository.js';
import { EventImportsRepository } from '../event-imports/event-imports.repository.js';
import { eventDayMs } from '../../db/sql/event-days.js';
import { checkIntegrity } from '../../db/integrity.js';

/**
 * The search indexes themselves: what the migration builds from events already stored, how the
 * index follows writes, and that pages and counts are planned on the indexes
 * (docs/performance.md#search-at-10-million-events). API behaviour is covered by
 * events.routes.test.ts.
 */
describe.each(engines)('event search indexes on %s', (engine) => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await drop?.();
    drop = undefined;
  });

  const open = async () => {
    const test = await openTestDatabase(engine);
    drop = test.drop;
    return test.database;
  };
  const resolve = (search: EventSearch, query: Parameters<typeof buildEventFilter>[0]) =>
    search.resolve(buildEventFilter(query, globalWindow(), 'substring'));

  it('indexes the events stored before the migration, same-millisecond ones included', async () => {
    const database = await open();
    const migrations = migrationsFor(database.dialect);
    if (database.schema) await database.db.schema.createSchema(database.schema).ifNotExists().execute();
    await migrations['001-initial']!.up(database.db as unknown as Kysely<unknown>);
    await insertEvents(database.db, [
      { ts: 1000, event_value: 'FISH', event_free_text: 'an octopus', id: 'b'.repeat(24) },
      {
        ts: 1000,
        event_value: 'FISH',
        event_options: [{ event_option_name: 'x', event_option_value: 'Octopus vulgaris' }],
        id: 'a'.repeat(24),
      },
      { ts: 2000, event_value: 'ASNAP' },
    ]);
    await database.db
      .transaction()
      .execute((trx) => migrations['002-event-search']!.up(trx as unknown as Kysely<unknown>));
    const search = new EventSearch(database.db, database.dialect);
    const found = await resolve(search, { fulltext: ['octopus'] });
    expect(await search.count(found)).toBe(2);
    expect((await search.page(found, { order: 'asc', offset: 0, limit: 10 })).map((e) => e.id)).toEqual([
      'a'.repeat(24),
      'b'.repeat(24),
    ]);
  });

  it('keeps the index in step with inserts, edits, time changes and deletes', async () => {
    const database = await open();
    await migrateToLatest(database);
    const db = database.db;
    const search = new EventSearch(db, database.dialect);
    const [one, two] = await insertEvents(db, [
      { ts: 5000, event_value: 'FISH', event_free_text: 'first sighting' },
      { ts: 6000, event_value: 'CORAL', event_author: 'alice' },
    ]);
    const count = async (query: Parameters<typeof buildEventFilter>[0]) => search.count(await resolve(search, query));
    expect(await count({ freetext: ['sighting'] })).toBe(1);
    await db.updateTable('events').set({ event_free_text: 'second look', ts: 9000 }).where('id', '=', one!).execute();
    expect(await count({ freetext: ['sighting'] })).toBe(0);
    expect(await count({ freetext: ['second'] })).toBe(1);
    const page = await search.page(await resolve(search, { fulltext: ['second', 'alice'] }), {
      order: 'desc',
      offset: 0,
      limit: 10,
    });
    expect(page.map((e) => [e.id, e.ts])).toEqual([
      [one, 9000],
      [two, 6000],
    ]);
    // A NUL in a term (found by the fuzz suite: FTS5 stops reading its query there, a 500) is
    // searched without the index, for every text group.
    for (const key of ['author', 'freetext', 'fulltext'] as const) {
      expect(await count({ [key]: ['al\u0000ice'] })).toBe(0);
      expect(await count({ [key]: ['alice', 'x\u0000y'] })).toBe(key === 'freetext' ? 0 : 1);
    }
    await db.deleteFrom('events').where('id', '=', two!).execute();
    expect(await count({ author: ['alice'] })).toBe(0);
    if (database.dialect === 'sqlite') {
      await sql`INSERT INTO events_fts(events_fts) VALUES ('integrity-check')`.execute(db);
    }
  });

  it('plans fulltext pages and counts on the substring index and ASNAP-hidden lists on the ts and value indexes', async () => {
    const database = await open();
    await migrateToLatest(database);
    await insertEvents(database.db, [
      // Enough rows that PostgreSQL's planner weighs an index against scanning (it reads tiny tables whole).
      ...Array.from({ length: database.dialect === 'postgres' ? 30_000 : 3000 }, (_, i) => ({
        ts: 1000 + i * 1000,
        event_value: i % 4 ? 'ASNAP' : `VALUE ${i % 40}`,
        event_free_text: `note ${i} with a few more words about the dive`,
      })),
      { ts: 2500, event_value: 'FISH', event_free_text: 'octopus' },
    ]);
    if (database.dialect === 'postgres') await sql`ANALYZE`.execute(database.db);
    await database.db.transaction().execute(async (trx) => {
      // Tiny tables make PostgreSQL prefer a sequential scan; the question is whether the index can serve.
      if (database.dialect === 'postgres') await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const search = new EventSearch(trx as unknown as Kysely<DB>, database.dialect);
      const fulltext = await resolve(search, { fulltext: ['octopus'], value: ['!ASNAP'] });
      const hidden = await resolve(search, { value: ['!ASNAP'] });
      const plans = {
        fulltextPage: await search.explain(fulltext, 'page', 'desc', 15),
        fulltextCount: await search.explain(fulltext, 'count'),
        hiddenPage: await search.explain(hidden, 'page', 'desc', 20),
        hiddenCount: await search.explain(hidden, 'count'),
      };
      if (database.dialect === 'sqlite') {
        // ASNAP hidden: the index without ASNAP events (migration 012), no value lookup per hit.
        expect(plans.fulltextPage).toMatch(/SCAN events_fts_no_asnap VIRTUAL TABLE/);
        expect(plans.fulltextPage).not.toMatch(/TEMP B-TREE/);
        expect(plans.fulltextCount).toMatch(/SCAN events_fts_no_asnap VIRTUAL TABLE/);
        expect(plans.fulltextCount).not.toMatch(/event_search|SEARCH s\b/);
        expect(await search.explain(await resolve(search, { fulltext: ['octopus'] }), 'count')).toMatch(
          /SCAN events_fts VIRTUAL TABLE/,
        );
        expect(plans.hiddenPage).toMatch(/USING INDEX events_ts_value_idx/);
        expect(plans.hiddenCount).toMatch(/USING COVERING INDEX events_value_ts_idx/);
      } else {
        // With the value list too, PostgreSQL may pick either index by its statistics; alone, the term uses trigrams.
        expect(await search.explain(await resolve(search, { fulltext: ['octopus'] }), 'count')).toMatch(
          /event_search_doc_trgm_idx/,
        );
        expect(plans.hiddenPage).toMatch(/events_ts_value_idx|events_value_ts_idx/);
        expect(plans.hiddenCount).toMatch(/events_value_ts_idx/);
      }
    });
  });
  it('counts value-only filters exactly across days, before 1970 and after inserts, edits and deletes', async () => {
    const database = await open();
    const migrations = migrationsFor(database.dialect);
    if (database.schema) await database.db.schema.createSchema(database.schema).ifNotExists().execute();
    // Events stored before migration 010 are counted by its backfill; later ones by the triggers.
    const day = eventDayMs;
    const provider: MigrationProvider = { getMigrations: async () => migrations };
    const migrator = new Migrator({
      db: database.db,
      provider,
      ...(database.schema ? { migrationTableSchema: database.schema } : {}),
    });
    expect((await migrator.migrateTo('009-audit-filters')).error).toBeUndefined();
    const stored = await insertEvents(
      database.db,
      Array.from({ length: 40 }, (_, i) => ({
        ts: -3 * day + i * Math.floor(day / 5) + 7,
        event_value: i % 3 ? 'ASNAP' : i % 2 ? 'FISH' : 'CORAL',
      })),
    );
    await migrateToLatest(database);
    const db = database.db;
    const later = await insertEvents(
      db,
      Array.from({ length: 30 }, (_, i) => ({
        ts: 2 * day + i * Math.floor(day / 4) - 1,
        event_value: i % 4 ? 'ASNAP' : 'FISH',
      })),
    );
    await db.updateTable('events').set({ event_value: 'CORAL' }).where('id', '=', later[0]!).execute();
    await db
      .updateTable('events')
      .set({ ts: 9 * day })
      .where('id', '=', stored[1]!)
      .execute();
    await db.deleteFrom('events').where('id', 'in', [stored[0]!, later[5]!]).execute();
    const search = new EventSearch(db, database.dialect);
    const all = await db.selectFrom('events').select(['ts', 'event_value']).execute();
    const windows: Array<[number, number]> = [
      [0, Date.now()],
      [-5 * day, 20 * day],
      [-3 * day + 8, 3 * day - 2],
      [-day, -1],
      [day / 2, day / 2 + 10],
      [2 * day - 1, 8 * day],
    ];
    for (const [lo, hi] of windows) {
      for (const value of [undefined, ['!ASNAP'], ['FISH'], ['CORAL', 'FISH']]) {
        const resolved = await search.resolve(
          buildEventFilter({ value, startTS: lo, stopTS: hi }, { lo: -10 * day, hi: Date.now() }, 'substring'),
        );
        const expected = all.filter(
          (e) =>
            e.ts >= lo &&
            e.ts <= hi &&
            (value === undefined ||
              (value[0] === '!ASNAP' ? e.event_value !== 'ASNAP' : value.includes(e.event_value))),
        ).length;
        expect(await search.count(resolved), `${value?.join(',') ?? 'all'} in [${lo}, ${hi}]`).toBe(expected);
      }
    }
    if (database.dialect === 'sqlite') {
      const hidden = await search.resolve(buildEventFilter({ value: ['!ASNAP'] }, globalWindow(), 'substring'));
      const plan = await search.explain(hidden, 'count');
      expect(plan).toMatch(/SEARCH d USING PRIMARY KEY \(event_value=\? AND day>\? AND day<\?\)/);
      expect(plan).not.toMatch(/SCAN e\b|SCAN events/);
      // Rows with no events left are removed, not kept at zero.
      const zero = await sql<{ n: number }>`SELECT count(*) AS n FROM event_value_days WHERE n <= 0`.execute(db);
      expect(zero.rows[0]!.n).toBe(0);
      expect((await checkIntegrity(database)).problems).toEqual([]);
      await sql`UPDATE event_value_days SET n = n + 1 WHERE event_value = 'FISH' AND day = 2`.execute(db);
      expect((await checkIntegrity(database)).problems).toEqual([
        '1 per-day value counts (value and day) differ from the events',
      ]);
    }
    // A wipe empties the counts with the events.
    await new EventsRepository(db).deleteAll(database.dialect);
    const none = await search.resolve(buildEventFilter({ value: ['!ASNAP'] }, globalWindow(), 'substring'));
    expect(await search.count(none)).toBe(0);
    if (database.dialect === 'sqlite') expect((await checkIntegrity(database)).problems).toEqual([]);
  });

  it('keeps the index without ASNAP in step with every write path, and ASNAP-hidden searches exact', async () => {
    const database = await open();
    const migrations = migrationsFor(database.dialect);
    if (database.schema) await database.db.schema.createSchema(database.schema).ifNotExists().execute();
    const provider: MigrationProvider = { getMigrations: async () => migrations };
    const migrator = new Migrator({
      db: database.db,
      provider,
      ...(database.schema ? { migrationTableSchema: database.schema } : {}),
    });
    expect((await migrator.migrateTo('011-event-csv-shapes')).error).toBeUndefined();
    const db = database.db;
    const repository = new EventsRepository(db);
    let ts = 1000;
    // Distinct times, so every path orders the same; every author holds "crew" (a term all events match).
    const event = (value: string, text = '', more: { author?: string; option?: string; ts?: number } = {}) => ({
      id: newObjectId(),
      ts: more.ts ?? (ts += 1000),
      event_author: more.author ?? 'crew',
      event_value: value,
      event_options: JSON.stringify(
        more.option ? [{ event_option_name: 'kind', event_option_value: more.option }] : [],
      ),
      event_free_text: text,
    });
    // Stored before migration 012: its backfill indexes them.
    const early = [
      event('ASNAP', '', { author: 'crew sealog_asnap' }),
      event('FISH', 'an octopus near the vent'),
      event('ASNAP', 'octopus in frame'),
      event('CORAL', '', { option: 'Octopus bed' }),
      event('ASNAP', 'octopus again'),
    ];
    await repository.insertMany(early);
    await migrateToLatest(database);
    const search = new EventSearch(db, database.dialect);
    const queries: FilterQuery[] = [
      { fulltext: ['octopus'], value: ['!ASNAP'] },
      { fulltext: ['octopus'] },
      { fulltext: ['octopus', 'asnap'], value: ['!ASNAP'] },
      { fulltext: ['!ASNAP', 'octopus'] },
      { fulltext: ['oc'], value: ['!ASNAP'] },
      { fulltext: ['octo\u0000pus'], value: ['!ASNAP'] },
      { author: ['asnap'], value: ['!ASNAP'] },
      { freetext: ['octopus'], value: ['!ASNAP'] },
      { fulltext: ['octopus'], value: ['FISH'] },
      { fulltext: ['octopus'], value: ['!ASNAP', '!FISH'] },
      { fulltext: ['octopus'], value: ['!asnap'] },
      { fulltext: ['crew'], value: ['!ASNAP'], startTS: 3500, stopTS: 9500 },
    ];
    const check = async (step: string) => {
      const rows = await db.selectFrom('events').selectAll().execute();
      const has = (text: string, terms: string[]) => terms.some((t) => text.toLowerCase().includes(t.toLowerCase()));
      for (const query of queries) {
        const filter = buildEventFilter(query, globalWindow(), 'substring');
        const expected = rows
          .filter((e) => {
            const options = (JSON.parse(e.event_options) as Array<{ event_option_value: string }>).map(
              (o) => o.event_option_value,
            );
            const { include, exclude } = filter.values;
            return (
              Number(e.ts) >= filter.lo &&
              Number(e.ts) <= filter.hi &&
              (include.length === 0 || has(e.event_value, include)) &&
              !has(e.event_value, exclude) &&
              (filter.fulltext.length === 0 ||
                [e.event_value, e.event_free_text, e.event_author, ...options].some((t) => has(t, filter.fulltext))) &&
              (filter.authors.length === 0 || has(e.event_author, filter.authors)) &&
              (filter.freetext.length === 0 || has(e.event_free_text, filter.freetext))
            );
          })
          .sort((a, b) => Number(b.ts) - Number(a.ts))
          .map((e) => e.id);
        const resolved = await search.resolve(filter);
        const label = `${step}: ${JSON.stringify(query)}`;
        expect(await search.count(resolved), label).toBe(expected.length);
        const page = await search.page(resolved, { order: 'desc', offset: 0, limit: 15 });
        expect(
          page.map((e) => e.id),
          label,
        ).toEqual(expected.slice(0, 15));
        const second = await search.page(resolved, { order: 'asc', offset: 1, limit: 2 });
        expect(
          second.map((e) => e.id),
          label,
        ).toEqual([...expected].reverse().slice(1, 3));
      }
      if (database.dialect === 'sqlite') {
        // The index holds exactly the events that are not ASNAP, under their search keys.
        const indexed = await sql<{ seq: number }>`SELECT rowid AS seq FROM events_fts_no_asnap
          WHERE events_fts_no_asnap MATCH '{event_author}: "crew"' ORDER BY rowid`.execute(db);
        const shown = await sql<{ seq: number }>`SELECT s.seq FROM events e JOIN event_search s ON s.event_id = e.id
          WHERE e.event_value <> 'ASNAP' ORDER BY s.seq`.execute(db);
        expect(indexed.rows, step).toEqual(shown.rows);
        expect((await checkIntegrity(database)).problems, step).toEqual([]);
      }
    };
    await check('backfill');

    const [fishA, asnapA] = [event('FISH', 'octopus again'), event('ASNAP', 'octopus snapshot')];
    await repository.insert(fishA);
    await repository.insert(asnapA);
    await repository.insertMany([event('ASNAP', '', { option: 'octopus' }), event('SPONGE', 'no cephalopod')]);
    await new EventImportsRepository(db).insertNew({
      events: [event('ASNAP', 'imported octopus'), event('OCTOPUS', 'imported'), early[1]!],
      aux: [],
    });
    await check('inserts and imports');

    await repository.update(early[0]!.id, { event_value: 'FISH' }); // ASNAP -> shown
    await repository.update(fishA.id, { event_value: 'ASNAP' }); // shown -> ASNAP
    await repository.update(early[1]!.id, { event_free_text: 'a squid now' });
    await repository.update(early[3]!.id, { event_options: JSON.stringify([{ event_option_value: 'sand' }]) });
    await repository.update(early[2]!.id, { event_author: 'crew octopus fan' });
    await repository.update(asnapA.id, { ts: 500 });
    await repository.update(early[4]!.id, { ts: 4500, event_value: 'OCTOPUS SEEN' });
    await db.updateTable('events').set({ id: newObjectId() }).where('id', '=', early[3]!.id).execute();
    await check('updates');

    await repository.delete(early[1]!.id);
    await repository.deleteMany([fishA.id, early[4]!.id]);
    await check('deletes');

    // A value that also contains "asnap": !ASNAP leaves it out too, so hits are checked per row.
    await repository.insert(event('Asnap test', 'octopus drill'));
    await check('another value containing asnap');

    await repository.deleteAll(database.dialect);
    await check('wipe');
    await repository.insertMany([event('ASNAP', 'octopus'), event('FISH', 'octopus')]);
    await check('after the wipe');

    if (database.dialect === 'sqlite') {
      // An index that drifted from the events (here: one event unindexed) fails `bathylog check`.
      await sql`INSERT INTO events_fts_no_asnap(events_fts_no_asnap, rowid, event_value, event_free_text, option_values, event_author)
        SELECT 'delete', seq, event_value, event_free_text, option_values, event_author FROM event_search_no_asnap`.execute(
        db,
      );
      expect((await checkIntegrity(database)).problems).toEqual([
        expect.stringMatching(/^full-text index without ASNAP: /),
      ]);
    }
  });
});
