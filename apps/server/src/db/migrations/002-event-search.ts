import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Indexes for the event filters (reference §5.5): case-insensitive substring search on value,
 * free text, option values and author must stay fast over millions of events.
 *
 * SQLite: an FTS5 table with the trigram tokenizer (a phrase query is a substring match, case
 * folded). It is an external-content table over the view `event_search_doc`, so the text is not
 * stored twice, and triggers on `events` keep it in step. FTS5 needs a stable integer row key;
 * `events` has a text primary key and its implicit rowids may be renumbered by VACUUM, so
 * `event_search` gives each event a permanent `seq` (INTEGER PRIMARY KEY) that the index uses.
 *
 * PostgreSQL: pg_trgm GIN indexes on lower() expressions; LIKE '%term%' uses them.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') await upSqlite(db);
  else await upPostgres(db);
}

/** Option values of an event as one text, one value per line (SQLite expression over `<row>.event_options`). */
function sqliteOptionValues(row: 'new' | 'old' | 'e'): string {
  return `(CASE WHEN json_valid(${row}.event_options) THEN coalesce((SELECT group_concat(json_extract(j.value, '$.event_option_value'), char(10)) FROM json_each(${row}.event_options) j), '') ELSE '' END)`;
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  // option_values is kept here rather than computed in the view: FTS5 cannot read a view that
  // calls json_each (it qualifies the table-valued function with the schema and fails).
  await run(`CREATE TABLE event_search (
    seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE, option_values TEXT NOT NULL DEFAULT '')`);
  await run(`CREATE VIEW event_search_doc AS
    SELECT s.seq AS seq, e.event_value AS event_value, e.event_free_text AS event_free_text,
           s.option_values AS option_values, e.event_author AS event_author
    FROM event_search s JOIN events e ON e.id = s.event_id`);
  await run(`CREATE VIRTUAL TABLE events_fts USING fts5(
    event_value, event_free_text, option_values, event_author,
    content='event_search_doc', content_rowid='seq', tokenize='trigram')`);

  const columns = 'event_value, event_free_text, option_values, event_author';
  await run(`CREATE TRIGGER events_search_ai AFTER INSERT ON events BEGIN
    INSERT INTO event_search(event_id, option_values) VALUES (new.id, ${sqliteOptionValues('new')});
    INSERT INTO events_fts(rowid, ${columns})
      SELECT s.seq, new.event_value, new.event_free_text, s.option_values, new.event_author
      FROM event_search s WHERE s.event_id = new.id;
  END`);
  // An FTS5 external-content delete must be given exactly the values that were indexed.
  await run(`CREATE TRIGGER events_search_ad AFTER DELETE ON events BEGIN
    INSERT INTO events_fts(events_fts, rowid, ${columns})
      SELECT 'delete', s.seq, old.event_value, old.event_free_text, s.option_values, old.event_author
      FROM event_search s WHERE s.event_id = old.id;
    DELETE FROM event_search WHERE event_id = old.id;
  END`);
  await run(`CREATE TRIGGER events_search_au AFTER UPDATE OF event_value, event_free_text, event_options, event_author ON events BEGIN
    INSERT INTO events_fts(events_fts, rowid, ${columns})
      SELECT 'delete', s.seq, old.event_value, old.event_free_text, s.option_values, old.event_author
      FROM event_search s WHERE s.event_id = old.id;
    UPDATE event_search SET option_values = ${sqliteOptionValues('new')} WHERE event_id = new.id;
    INSERT INTO events_fts(rowid, ${columns})
      SELECT s.seq, new.event_value, new.event_free_text, s.option_values, new.event_author
      FROM event_search s WHERE s.event_id = new.id;
  END`);
  await run(`CREATE TRIGGER events_search_aid AFTER UPDATE OF id ON events BEGIN
    UPDATE event_search SET event_id = new.id WHERE event_id = old.id;
  END`);

  // Events stored before this migration.
  await run(`INSERT INTO event_search(event_id, option_values)
    SELECT e.id, ${sqliteOptionValues('e')} FROM events e ORDER BY e.ts, e.id`);
  await run(`INSERT INTO events_fts(events_fts) VALUES ('rebuild')`);
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  // The extension is database-wide; install it in public (not in a per-test schema that may be
  // dropped) and tolerate a concurrent install by another schema's migration.
  await sql`SAVEPOINT bathylog_trgm`.execute(db);
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);
    await sql`RELEASE SAVEPOINT bathylog_trgm`.execute(db);
  } catch {
    await sql`ROLLBACK TO SAVEPOINT bathylog_trgm`.execute(db);
  }
  const found = await sql<{ schema: string }>`
    SELECT n.nspname AS schema FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = 'pg_trgm'`.execute(db);
  const trgmSchema = found.rows[0]?.schema;

  await sql`CREATE OR REPLACE FUNCTION event_option_values(opts text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT coalesce(string_agg(o ->> 'event_option_value', E'\n'), '')
      FROM jsonb_array_elements(CASE WHEN opts IS NULL OR opts = '' THEN '[]'::jsonb ELSE opts::jsonb END) o
    $$`.execute(db);

  if (!trgmSchema) return; // No pg_trgm here: filters still work, by scanning.
  const ops = sql.raw(`"${trgmSchema.replace(/"/g, '""')}".gin_trgm_ops`);
  await sql`CREATE INDEX events_fulltext_trgm_idx ON events USING gin ((lower(${sql.raw(postgresFulltextDocument)})) ${ops})`.execute(db);
  await sql`CREATE INDEX events_author_trgm_idx ON events USING gin (lower(event_author) ${ops})`.execute(db);
  await sql`CREATE INDEX events_free_text_trgm_idx ON events USING gin (lower(event_free_text) ${ops})`.execute(db);
}

/**
 * The text the PostgreSQL fulltext filter searches (value, free text, option values, author,
 * separated by a unit separator so a term cannot match across fields). Queries must use exactly
 * this expression, lower-cased, for the index to apply.
 */
export const postgresFulltextDocument =
  "event_value || chr(31) || event_free_text || chr(31) || event_option_values(event_options) || chr(31) || event_author";
