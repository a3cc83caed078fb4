import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { sqliteNextKey, sqliteOptionValues } from './002-event-search.js';

/**
 * Fulltext search with ASNAP hidden at 10 million events (issue 13), SQLite.
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

/** The value the second index leaves out. */
export const hiddenEventValue = 'ASNAP';

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const columns = 'event_value, event_free_text, option_values, event_author';
  await run(`CREATE VIEW event_search_no_asnap AS
    SELECT seq, event_id, ${columns} FROM event_search WHERE event_value <> '${hiddenEventValue}'`);
  await run(`CREATE VIRTUAL TABLE events_fts_no_asnap USING fts5(
    event_value, event_free_text, option_values, event_author,
    content='event_search_no_asnap', content_rowid='seq', tokenize='trigram')`);

  const index = (ids: string) =>
    `INSERT INTO events_fts(rowid, ${columns}) SELECT seq, ${columns} FROM event_search WHERE event_id IN (${ids});
    INSERT INTO events_fts_no_asnap(rowid, ${columns}) SELECT seq, ${columns} FROM event_search_no_asnap WHERE event_id IN (${ids});`;
  const unindex = (ids: string) =>
    `INSERT INTO events_fts(events_fts, rowid, ${columns}) SELECT 'delete', seq, ${columns} FROM event_search WHERE event_id IN (${ids});
    INSERT INTO events_fts_no_asnap(events_fts_no_asnap, rowid, ${columns}) SELECT 'delete', seq, ${columns} FROM event_search_no_asnap WHERE event_id IN (${ids});`;

  for (const name of ['events_search_ai', 'events_search_ad', 'events_search_au', 'events_search_ats'])
    await run(`DROP TRIGGER ${name}`);
  await run(`CREATE TRIGGER events_search_ai AFTER INSERT ON events BEGIN
    INSERT INTO event_search(seq, event_id, ${columns})
      VALUES (${sqliteNextKey('new.ts')}, new.id, new.event_value, new.event_free_text, ${sqliteOptionValues('new')}, new.event_author);
    ${index('new.id')}
  END`);
  await run(`CREATE TRIGGER events_search_ad AFTER DELETE ON events BEGIN
    ${unindex('old.id')}
    DELETE FROM event_search WHERE event_id = old.id;
  END`);
  // (old.id, new.id): right whichever of these triggers runs first when one UPDATE changes several columns.
  await run(`CREATE TRIGGER events_search_au AFTER UPDATE OF event_value, event_free_text, event_options, event_author ON events BEGIN
    ${unindex('old.id, new.id')}
    UPDATE event_search SET event_value = new.event_value, event_free_text = new.event_free_text,
      option_values = ${sqliteOptionValues('new')}, event_author = new.event_author
      WHERE event_id IN (old.id, new.id);
    ${index('old.id, new.id')}
  END`);
  await run(`CREATE TRIGGER events_search_ats AFTER UPDATE OF ts ON events WHEN old.ts IS NOT new.ts BEGIN
    ${unindex('old.id, new.id')}
    UPDATE event_search SET seq = ${sqliteNextKey('new.ts')} WHERE event_id IN (old.id, new.id);
    ${index('old.id, new.id')}
  END`);

  // Events stored before this migration: the index built from its view, in key order.
  await run(`INSERT INTO events_fts_no_asnap(events_fts_no_asnap) VALUES ('rebuild')`);
}
