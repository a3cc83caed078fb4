import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Indexes for the event filters (docs/wire.md#event-filters): case-insensitive substring search on value,
 * free text, option values and author must stay fast over millions of events.
 *
 * SQLite: an FTS5 table with the trigram tokenizer (a phrase query is a substring match, case
 * folded), external-content over `event_search`, a compact projection of each event kept in step
 * by triggers on `events`. Its integer key `seq` is the event's time: ts × 65536 plus a counter
 * for events of the same millisecond. FTS5 walks hits in key order and takes key ranges, so a
 * search's newest page and its time window come out of the index alone, and a count never reads
 * a table. (`events` has a text primary key, and its implicit rowids may be renumbered by VACUUM:
 * it could not be the key anyway.)
 *
 * PostgreSQL: pg_trgm GIN indexes; LIKE '%term%' uses them. The fulltext document (with option
 * values out of their JSON) is kept in its own table, `event_search`, by a trigger.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') await upSqlite(db);
  else await upPostgres(db);
}

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
function sqliteOptionValues(row: 'new' | 'old' | 'e'): string {
  return `(CASE WHEN json_valid(${row}.event_options) THEN coalesce((SELECT group_concat(json_extract(j.value, '$.event_option_value'), char(10)) FROM json_each(${row}.event_options) j), '') ELSE '' END)`;
}

/** The first key of a ts's millisecond (SQLite expression). */
function sqliteKeyBase(ts: string): string {
  return `((CASE WHEN ${ts} > ${searchKeyTsLimit} THEN ${searchKeyTsLimit} WHEN ${ts} < -${searchKeyTsLimit} THEN -${searchKeyTsLimit} ELSE ${ts} END) * ${searchKeySlots})`;
}

/** The next free key for a ts (SQLite expression): after the last key used in its millisecond. */
function sqliteNextKey(ts: string): string {
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

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`CREATE TABLE event_search (
    seq INTEGER PRIMARY KEY,
    event_id TEXT NOT NULL UNIQUE,
    event_value TEXT NOT NULL,
    event_free_text TEXT NOT NULL,
    option_values TEXT NOT NULL,
    event_author TEXT NOT NULL)`);
  await run(`CREATE VIRTUAL TABLE events_fts USING fts5(
    event_value, event_free_text, option_values, event_author,
    content='event_search', content_rowid='seq', tokenize='trigram')`);

  const columns = sqliteSearchColumns;
  // The index is maintained from the events triggers (not from triggers on event_search), so a wipe
  // can empty the index and event_search first and then delete the events with no index work.
  // An external-content delete must be given exactly the values that were indexed: those in event_search.
  await createSqliteSearchTriggers(run, {
    index: (ids) =>
      `INSERT INTO events_fts(rowid, ${columns}) SELECT seq, ${columns} FROM event_search WHERE event_id IN (${ids});`,
    unindex: (ids) =>
      `INSERT INTO events_fts(events_fts, rowid, ${columns}) SELECT 'delete', seq, ${columns} FROM event_search WHERE event_id IN (${ids});`,
  });
  await run(`CREATE TRIGGER events_search_aid AFTER UPDATE OF id ON events BEGIN
    UPDATE event_search SET event_id = new.id WHERE event_id = old.id;
  END`);

  // Events stored before this migration: same-millisecond events numbered in id order.
  await run(`INSERT INTO event_search(seq, event_id, ${columns})
    SELECT ${sqliteKeyBase('e.ts')} + (row_number() OVER (PARTITION BY e.ts ORDER BY e.id)) - 1,
           e.id, e.event_value, e.event_free_text, ${sqliteOptionValues('e')}, e.event_author
    FROM events e`);
  await run(`INSERT INTO events_fts(events_fts) VALUES ('rebuild')`);
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  // The extension is database-wide; install it in public (not in a per-test schema that may be
  // dropped). The exception block tolerates a concurrent install by another schema's migration
  // and a server where the extension is missing or not ours to create: filters then scan.
  await sql`DO $$ BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
    EXCEPTION WHEN OTHERS THEN
      RAISE NOTICE 'pg_trgm not installed: %', SQLERRM;
    END $$`.execute(db);
  const found = await sql<{ schema: string }>`
    SELECT n.nspname AS schema FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = 'pg_trgm'`.execute(
    db,
  );
  const trgmSchema = found.rows[0]?.schema;

  await sql`CREATE OR REPLACE FUNCTION event_option_values(opts text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT coalesce(string_agg(o ->> 'event_option_value', E'\n'), '')
      FROM jsonb_array_elements(CASE WHEN opts IS NULL OR opts = '' THEN '[]'::jsonb ELSE opts::jsonb END) o
    $$`.execute(db);

  // The fulltext document of each event, lower-cased, with ts and value beside it so a search
  // counts and pages on this table alone. Computed once per write by a trigger: computing it in
  // the index recheck (option values come out of JSON) cost ten times more per hit.
  await sql`CREATE TABLE event_search (
    event_id varchar(24) PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE ON UPDATE CASCADE,
    ts bigint NOT NULL,
    event_value text NOT NULL,
    doc text NOT NULL)`.execute(db);
  await sql`CREATE INDEX event_search_ts_idx ON event_search (ts, event_id)`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION event_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.id <> NEW.id THEN
        DELETE FROM event_search WHERE event_id = OLD.id;
      END IF;
      INSERT INTO event_search(event_id, ts, event_value, doc)
        VALUES (NEW.id, NEW.ts, NEW.event_value, lower(${sql.raw(postgresFulltextDocument('NEW.'))}))
        ON CONFLICT (event_id) DO UPDATE SET ts = EXCLUDED.ts, event_value = EXCLUDED.event_value, doc = EXCLUDED.doc;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER events_search_sync AFTER INSERT OR UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION event_search_sync()`.execute(db);
  await sql`INSERT INTO event_search(event_id, ts, event_value, doc)
    SELECT e.id, e.ts, e.event_value, lower(${sql.raw(postgresFulltextDocument('e.'))}) FROM events e`.execute(db);

  if (!trgmSchema) return; // No pg_trgm here: filters still work, by scanning.
  const ops = sql.raw(`"${trgmSchema.replace(/"/g, '""')}".gin_trgm_ops`);
  await sql`CREATE INDEX event_search_doc_trgm_idx ON event_search USING gin (doc ${ops})`.execute(db);
  await sql`CREATE INDEX events_author_trgm_idx ON events USING gin (lower(event_author) ${ops})`.execute(db);
  await sql`CREATE INDEX events_free_text_trgm_idx ON events USING gin (lower(event_free_text) ${ops})`.execute(db);
}

/**
 * The text the PostgreSQL fulltext filter searches: value, free text, option values and author,
 * separated by a unit separator so a term cannot match across fields.
 */
export function postgresFulltextDocument(row: string): string {
  return `${row}event_value || chr(31) || ${row}event_free_text || chr(31) || event_option_values(${row}event_options) || chr(31) || ${row}event_author`;
}
