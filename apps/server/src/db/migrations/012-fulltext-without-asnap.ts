import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { createSqliteSearchTriggers, hiddenEventValue, sqliteSearchColumns } from '../sql/event-search.js';

/**
 * Fulltext search with ASNAP hidden at 10 million events, SQLite
 * (docs/performance.md#search-at-10-million-events).
 *
 * The event-management page searches with `value=!ASNAP`. Through `events_fts` alone, each hit
 * was then checked against `event_search` for its value: one row lookup per hit, seconds for a
 * frequent term at 10M events. `events_fts_no_asnap` is a second FTS5 trigram index, external
 * content over the view `event_search_no_asnap` (the `event_search` rows whose value is not
 * `ASNAP`), with the same key (`seq`). A search that leaves ASNAP out MATCHes it instead, and when
 * ASNAP is the only value left out the count and the page never leave the FTS b-tree.
 *
 * The value is the exact stored `ASNAP` (what the ASNAP bot and the built-in ASNAP log): `!ASNAP`
 * resolves to the stored values, and the query uses this index only when the values it leaves out
 * include `ASNAP` (see `EventSearch.ftsPlan`), so any other value containing "asnap" is still
 * checked per hit. Writes: an ASNAP event (three in four) costs what it did; any other is indexed
 * twice.
 *
 * The index is kept by the same triggers as `events_fts` (migration 002), recreated here with the
 * second index's statements in the same bodies: an external-content delete must be given the
 * values in `event_search` before it changes, which one body orders and separate triggers would
 * not. PostgreSQL is unchanged (its count rechecks each hit's heap row anyway).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') await upSqlite(db);
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const columns = sqliteSearchColumns;
  await run(`CREATE VIEW event_search_no_asnap AS
    SELECT seq, event_id, ${columns} FROM event_search WHERE event_value <> '${hiddenEventValue}'`);
  await run(`CREATE VIRTUAL TABLE events_fts_no_asnap USING fts5(
    event_value, event_free_text, option_values, event_author,
    content='event_search_no_asnap', content_rowid='seq', tokenize='trigram')`);

  for (const name of ['events_search_ai', 'events_search_ad', 'events_search_au', 'events_search_ats'])
    await run(`DROP TRIGGER ${name}`);
  await createSqliteSearchTriggers(run, {
    index: (ids) =>
      `INSERT INTO events_fts(rowid, ${columns}) SELECT seq, ${columns} FROM event_search WHERE event_id IN (${ids});
    INSERT INTO events_fts_no_asnap(rowid, ${columns}) SELECT seq, ${columns} FROM event_search_no_asnap WHERE event_id IN (${ids});`,
    unindex: (ids) =>
      `INSERT INTO events_fts(events_fts, rowid, ${columns}) SELECT 'delete', seq, ${columns} FROM event_search WHERE event_id IN (${ids});
    INSERT INTO events_fts_no_asnap(events_fts_no_asnap, rowid, ${columns}) SELECT 'delete', seq, ${columns} FROM event_search_no_asnap WHERE event_id IN (${ids});`,
  });

  // Events stored before this migration: the index built from its view, in key order.
  await run(`INSERT INTO events_fts_no_asnap(events_fts_no_asnap) VALUES ('rebuild')`);
}
