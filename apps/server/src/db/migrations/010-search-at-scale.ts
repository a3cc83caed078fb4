import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { sqliteDay } from '../sql/event-days.js';

/**
 * Search at 10 million events (docs/performance.md#search-at-10-million-events).
 *
 * Both engines: the time index also holds the event's value, `events (ts, id, event_value)`, in
 * place of `events (ts, id)`. The console's history (`!ASNAP`, newest first, 20 a page by offset)
 * walks it and checks each entry's value in the index itself: the events it skips (three in four
 * are ASNAP, and every row before the offset) are never read from the table.
 *
 * SQLite: `event_value_days`, the number of events per value and UTC day, kept by triggers on
 * `events`. A count with no text term (the event-management page as it opens: `!ASNAP`) adds the
 * whole days inside its window from there and counts the two partial days at its edges on the
 * (event_value, ts) index: a few thousand rows read instead of millions. SQLite has one writer, so
 * the counter rows cost each insert one upsert and never contend. (PostgreSQL's concurrent writers
 * would queue on, and could deadlock over, the same counter rows: there the count stays on the
 * index.)
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await sql`CREATE INDEX events_ts_value_idx ON events (ts, id, event_value)`.execute(db);
  await sql`DROP INDEX events_ts_idx`.execute(db);
  if (dialect === 'sqlite') await upSqlite(db);
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`CREATE TABLE event_value_days (
    event_value TEXT NOT NULL,
    day INTEGER NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (event_value, day)) WITHOUT ROWID`);
  const add = (row: 'new') =>
    `INSERT INTO event_value_days(event_value, day, n) VALUES (${row}.event_value, ${sqliteDay(`${row}.ts`)}, 1)
      ON CONFLICT (event_value, day) DO UPDATE SET n = n + 1;`;
  const remove = (row: 'old') =>
    `UPDATE event_value_days SET n = n - 1 WHERE event_value = ${row}.event_value AND day = ${sqliteDay(`${row}.ts`)};
     DELETE FROM event_value_days WHERE event_value = ${row}.event_value AND day = ${sqliteDay(`${row}.ts`)} AND n <= 0;`;
  await run(`CREATE TRIGGER events_value_days_ai AFTER INSERT ON events BEGIN ${add('new')} END`);
  await run(`CREATE TRIGGER events_value_days_ad AFTER DELETE ON events BEGIN ${remove('old')} END`);
  await run(`CREATE TRIGGER events_value_days_au AFTER UPDATE OF ts, event_value ON events
    WHEN old.ts IS NOT new.ts OR old.event_value IS NOT new.event_value BEGIN ${remove('old')} ${add('new')} END`);
  await run(`INSERT INTO event_value_days(event_value, day, n)
    SELECT event_value, ${sqliteDay('ts')}, count(*) FROM events GROUP BY 1, 2`);
}
