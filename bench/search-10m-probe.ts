/**
 * In-process probe of the two value-only queries at 10M events
 * (docs/performance.md#search-at-10-million-events), for when the full HTTP run
 * (`BENCH_EVENTS=10000000 BENCH_RESULT_NAME=search-10m npx tsx search-export.bench.ts`) cannot
 * finish: on a database whose events are loaded but which has not had migration 010 (e.g. one the
 * bulk loader is still indexing, opened read-only), it times
 * - the console history page (`!ASNAP`, newest first, 20 a page) at offsets 0-980, on (ts, id);
 * - the `!ASNAP` count on the (event_value, ts) index, and the same count from per-value-and-day
 *   counts built in a TEMP table exactly as migration 010 builds `event_value_days`.
 * Usage: npx tsx search-10m-probe.ts <sqlite file>. Prints JSON.
 */
import os from 'node:os';
import SQLite from 'better-sqlite3';

const db = new SQLite(process.argv[2]!, { readonly: true });
db.pragma('mmap_size = 4294967296');
const values = (
  db.prepare('SELECT DISTINCT event_value AS v FROM events INDEXED BY events_value_ts_idx').all() as Array<{
    v: string;
  }>
)
  .map((r) => r.v)
  .filter((v) => v !== 'ASNAP');
const ph = values.map(() => '?').join(',');
const now = Date.now();
const day = 86_400_000;
const out: Record<string, unknown> = {
  events: (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n,
};

function time(label: string, f: () => unknown, n: number) {
  f();
  const t: number[] = [];
  let result: unknown;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    result = f();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  out[label] = { medianMs: r(t[Math.floor(n / 2)]!), maxMs: r(t[n - 1]!), n, result, loadAverage: r(os.loadavg()[0]!) };
}

const page =
  db.prepare(`SELECT e.id, e.ts, e.event_author, e.event_value, e.event_options, e.event_free_text FROM events e
  WHERE e.ts >= 0 AND e.ts <= ? AND +e.event_value IN (${ph}) ORDER BY e.ts DESC, e.id DESC LIMIT 20 OFFSET ?`);
for (const offset of [0, 20, 200, 980])
  time(`history page, offset ${offset} (events_ts_idx)`, () => page.all(now, ...values, offset).length, 9);
const count = db.prepare(
  `SELECT count(*) AS n FROM events e WHERE e.ts >= 0 AND e.ts <= ? AND e.event_value IN (${ph})`,
);
time('!ASNAP count (events_value_ts_idx)', () => (count.get(now, ...values) as { n: number }).n, 3);

const t0 = performance.now();
db.exec(`CREATE TEMP TABLE d (event_value TEXT NOT NULL, day INTEGER NOT NULL, n INTEGER NOT NULL,
  PRIMARY KEY (event_value, day)) WITHOUT ROWID`);
db.exec(`INSERT INTO temp.d SELECT event_value,
  (CASE WHEN ts >= 0 THEN ts / ${day} ELSE -((-ts - 1) / ${day}) - 1 END), count(*) FROM events GROUP BY 1, 2`);
out['day counts built (s)'] = Math.round((performance.now() - t0) / 100) / 10;
const first = 1;
const last = Math.floor(now / day) - 1;
const dayCount = db.prepare(`SELECT
  (SELECT coalesce(sum(d.n), 0) FROM temp.d d WHERE d.day >= ? AND d.day <= ? AND d.event_value IN (${ph}))
  + (SELECT count(*) FROM events e WHERE e.ts >= 0 AND e.ts <= ? AND e.event_value IN (${ph}))
  + (SELECT count(*) FROM events e WHERE e.ts >= ? AND e.ts <= ? AND e.event_value IN (${ph})) AS n`);
time(
  '!ASNAP count (per-day counts + edge days, migration 010)',
  () =>
    (
      dayCount.get(first, last, ...values, first * day - 1, ...values, (last + 1) * day, now, ...values) as {
        n: number;
      }
    ).n,
  9,
);
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
