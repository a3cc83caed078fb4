/**
 * In-process probe of the event-management search with ASNAP hidden (migration 012,
 * docs/performance.md#search-at-10-million-events): `fulltext=<term>&value=!ASNAP`, the page
 * (newest first, 15) and its count. On a loaded SQLite database it runs the migrations (timed: on a
 * database loaded before migration 012 this is its backfill of `events_fts_no_asnap`), then times
 * for each of the benchmark's terms
 * - the page and the count as the server runs them (`EventSearch`: the index without ASNAP),
 * - the count as before migration 012: `events_fts`, each hit's value read from `event_search`,
 * and checks the two counts agree. The migrations write to the file: run it on a copy, or on a
 * database kept for this (`BENCH_KEEP=1`). Nothing else may use the file meanwhile.
 * PROBE_REBUILD=1 also times the backfill's work again (the index rebuilt from its view),
 * PROBE_CHECK=1 the check `bathylog check` adds (the index against its content).
 * Usage: npx tsx search-fts-probe.ts <sqlite file> [repetitions, default 5]. Prints JSON.
 */
import os from 'node:os';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../apps/server/src/db/database.js';
import { searchKeyRange } from '../apps/server/src/db/sql/event-search.js';
import { buildEventFilter, globalWindow } from '../apps/server/src/modules/events/event-filter.js';
import { EventSearch } from '../apps/server/src/modules/events/event-search.js';
import { searchTerms } from './synthetic-events.js';

const file = process.argv[2];
if (!file) throw new Error('usage: search-fts-probe.ts <sqlite file> [repetitions]');
const repetitions = Number(process.argv[3] ?? 5);
const round = (x: number) => Math.round(x * 10) / 10;
const load = () => round(os.loadavg()[0]!);

const database = openDatabase({ url: null, sqlitePath: file });
const out: Record<string, unknown> = {};
try {
  const had = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM sqlite_master WHERE name = 'events_fts_no_asnap'`.execute(database.db);
  const t0 = performance.now();
  const loadBefore = load();
  await migrateToLatest(database);
  out.migrations = {
    seconds: round((performance.now() - t0) / 1000),
    built012: had.rows[0]!.n === 0,
    loadAverage: [loadBefore, load()],
  };
  const db = database.db;
  if (process.env.PROBE_REBUILD === '1') {
    // The backfill's work on a database that has migration 012 already: the index rebuilt from its view.
    const t = performance.now();
    await sql`INSERT INTO events_fts_no_asnap(events_fts_no_asnap) VALUES ('rebuild')`.execute(db);
    out.rebuild012Seconds = round((performance.now() - t) / 1000);
  }
  if (process.env.PROBE_CHECK === '1') {
    // What `bathylog check` adds: the index checked against its content.
    const t = performance.now();
    await sql`INSERT INTO events_fts_no_asnap(events_fts_no_asnap, rank) VALUES ('integrity-check', 1)`.execute(db);
    out.check012Seconds = round((performance.now() - t) / 1000);
  }
  out.events = Number((await sql<{ n: number }>`SELECT count(*) AS n FROM events`.execute(db)).rows[0]!.n);
  out.indexedWithoutAsnap = Number(
    (await sql<{ n: number }>`SELECT count(*) AS n FROM event_search_no_asnap`.execute(db)).rows[0]!.n,
  );
  const search = new EventSearch(db, 'sqlite');

  const time = async <T>(f: () => Promise<T>) => {
    await f();
    const t: number[] = [];
    let result: T | undefined;
    for (let i = 0; i < repetitions; i++) {
      const start = performance.now();
      result = await f();
      t.push(performance.now() - start);
    }
    t.sort((a, b) => a - b);
    return { medianMs: round(t[Math.floor(t.length / 2)]!), maxMs: round(t[t.length - 1]!), result };
  };

  const terms: Record<string, unknown> = {};
  for (const term of searchTerms) {
    const resolved = await search.resolve(
      buildEventFilter({ fulltext: [term], value: ['!ASNAP'] }, globalWindow(), 'substring'),
    );
    const page = await time(async () => (await search.page(resolved, { order: 'desc', offset: 0, limit: 15 })).length);
    const count = await time(() => search.count(resolved));
    // Before migration 012: the same match on events_fts, each hit's value checked on event_search.
    const [lo, hi] = searchKeyRange(resolved.filter.lo, resolved.filter.hi);
    const match = `({event_value event_free_text option_values event_author} : ("${term.replace(/"/g, '""')}"))`;
    const before = await time(async () =>
      Number(
        (
          await sql<{ n: number }>`SELECT count(*) AS n FROM events_fts CROSS JOIN event_search s
              WHERE events_fts.rowid >= ${lo} AND events_fts.rowid <= ${hi} AND events_fts MATCH ${match}
              AND s.seq = events_fts.rowid AND s.event_value IN (${sql.join(resolved.valueList ?? [])})`.execute(db)
        ).rows[0]!.n,
      ),
    );
    if (before.result !== count.result) throw new Error(`${term}: count ${count.result}, before 012 ${before.result}`);
    terms[term] = {
      hits: count.result,
      pageMs: page.medianMs,
      countMs: count.medianMs,
      countMaxMs: count.maxMs,
      countBefore012Ms: before.medianMs,
      loadAverage: load(),
    };
  }
  out.terms = terms;
  out.plan = await search.explain(
    await search.resolve(buildEventFilter({ fulltext: ['sample'], value: ['!ASNAP'] }, globalWindow(), 'substring')),
    'count',
  );
} finally {
  await database.close();
}
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
