/**
 * SQL of the event search indexes, shared by the migrations that create them (002, 012, 013) and
 * the queries that read them (modules/events/event-search.ts). Migrations are frozen once
 * released: a change here must leave the SQL they generate unchanged (db/migrations/frozen.test.ts).
 */

/** Key slots per millisecond; more events in one millisecond spill into the next slots (order only). */
export const searchKeySlots = 65536;
/** Times beyond ±2^46 ms (about ±2200 years from 1970) share the edge key, so keys stay 64-bit. */
export const searchKeyTsLimit = 2 ** 46;

/** The FTS key range of an inclusive ts window (BigInt: the keys exceed 2^53). */
export function searchKeyRange(lo: number, hi: number): [bigint, bigint] {
  const clamp = (t: number) => BigInt(Math.max(-searchKeyTsLimit, Math.min(searchKeyTsLimit, Math.trunc(t))));
  const slots = BigInt(searchKeySlots);
  return [clamp(lo) * slots, clamp(hi) * slots + slots - 1n];
}

/** Option values of an event as one text, one value per line (SQLite expression over `<row>.event_options`). */
export function sqliteOptionValues(row: 'new' | 'old' | 'e'): string {
  return `(CASE WHEN json_valid(${row}.event_options) THEN coalesce((SELECT group_concat(json_extract(j.value, '$.event_option_value'), char(10)) FROM json_each(${row}.event_options) j), '') ELSE '' END)`;
}

/** The first key of a ts's millisecond (SQLite expression). */
export function sqliteKeyBase(ts: string): string {
  return `((CASE WHEN ${ts} > ${searchKeyTsLimit} THEN ${searchKeyTsLimit} WHEN ${ts} < -${searchKeyTsLimit} THEN -${searchKeyTsLimit} ELSE ${ts} END) * ${searchKeySlots})`;
}

/** The next free key for a ts (SQLite expression): after the last key used in its millisecond. */
export function sqliteNextKey(ts: string): string {
  const base = sqliteKeyBase(ts);
  return `coalesce((SELECT max(seq) + 1 FROM event_search WHERE seq >= ${base} AND seq < ${base} + ${searchKeySlots}), ${base})`;
}

/** The columns of `event_search` the FTS indexes hold. */
export const sqliteSearchColumns = 'event_value, event_free_text, option_values, event_author';

/**
 * The triggers on `events` that keep `event_search` and the FTS index(es) in step: `index` and
 * `unindex` give the statements that add and remove the events of an id list to and from every
 * index (migration 012 adds a second one). Unindexing runs before `event_search` changes and
 * indexing after, in one body, because an external-content delete must be given the values that
 * were indexed.
 */
export async function createSqliteSearchTriggers(
  run: (text: string) => Promise<unknown>,
  statements: { index: (ids: string) => string; unindex: (ids: string) => string },
): Promise<void> {
  const { index, unindex } = statements;
  const columns = sqliteSearchColumns;
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
}

/** The value the second FTS index (`events_fts_no_asnap`, migration 012) leaves out. */
export const hiddenEventValue = 'ASNAP';

/**
 * The text the PostgreSQL fulltext filter searches: value, free text, option values and author,
 * separated by a unit separator so a term cannot match across fields.
 */
export function postgresFulltextDocument(row: string): string {
  return `${row}event_value || chr(31) || ${row}event_free_text || chr(31) || event_option_values(${row}event_options) || chr(31) || ${row}event_author`;
}
