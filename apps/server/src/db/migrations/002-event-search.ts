import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import {
  createSqliteSearchTriggers,
  postgresFulltextDocument,
  sqliteKeyBase,
  sqliteOptionValues,
  sqliteSearchColumns,
} from '../sql/event-search.js';

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
