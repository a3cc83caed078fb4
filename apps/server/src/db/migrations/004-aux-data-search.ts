import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The index of `fulltext` on the aux-data lists (Sealog 2.4.6): a case-insensitive substring
 * search over each record's data names and values, built like the events search (migration 002).
 *
 * Both engines keep a projection `event_aux_search(aux_id, doc)`: the record's items as one
 * lower-cased text, one `name<US>value` line per item (the unit separator keeps a term from
 * matching across a name and its value), maintained by triggers on `event_aux_data`.
 *
 * SQLite: an external-content FTS5 table with the trigram tokenizer over that projection, keyed by
 * its integer `seq` (aux ids are text). PostgreSQL: a pg_trgm GIN index on `doc`; LIKE uses it.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') await upSqlite(db);
  else await upPostgres(db);
}

/** The document of one record (SQLite expression over `<row>.data_array`). */
function sqliteDoc(row: 'new' | 'a'): string {
  return `lower(CASE WHEN json_valid(${row}.data_array) THEN coalesce((SELECT group_concat(coalesce(json_extract(j.value, '$.data_name'), '') || char(31) || coalesce(json_extract(j.value, '$.data_value'), ''), char(10)) FROM json_each(${row}.data_array) j), '') ELSE '' END)`;
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`CREATE TABLE event_aux_search (
    seq INTEGER PRIMARY KEY,
    aux_id TEXT NOT NULL UNIQUE,
    doc TEXT NOT NULL)`);
  await run(`CREATE VIRTUAL TABLE event_aux_fts USING fts5(
    doc, content='event_aux_search', content_rowid='seq', tokenize='trigram')`);
  const unindex = (ids: string) =>
    `INSERT INTO event_aux_fts(event_aux_fts, rowid, doc) SELECT 'delete', seq, doc FROM event_aux_search WHERE aux_id IN (${ids});`;
  const reindex = (ids: string) =>
    `INSERT INTO event_aux_fts(rowid, doc) SELECT seq, doc FROM event_aux_search WHERE aux_id IN (${ids});`;
  await run(`CREATE TRIGGER event_aux_search_ai AFTER INSERT ON event_aux_data BEGIN
    INSERT INTO event_aux_search(aux_id, doc) VALUES (new.id, ${sqliteDoc('new')});
    ${reindex('new.id')}
  END`);
  await run(`CREATE TRIGGER event_aux_search_ad AFTER DELETE ON event_aux_data BEGIN
    ${unindex('old.id')}
    DELETE FROM event_aux_search WHERE aux_id = old.id;
  END`);
  await run(`CREATE TRIGGER event_aux_search_au AFTER UPDATE OF id, data_array ON event_aux_data BEGIN
    ${unindex('old.id')}
    UPDATE event_aux_search SET aux_id = new.id, doc = ${sqliteDoc('new')} WHERE aux_id = old.id;
    ${reindex('new.id')}
  END`);
  await run(
    `INSERT INTO event_aux_search(aux_id, doc) SELECT a.id, ${sqliteDoc('a')} FROM event_aux_data a ORDER BY a.id`,
  );
  await run(`INSERT INTO event_aux_fts(event_aux_fts) VALUES ('rebuild')`);
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE OR REPLACE FUNCTION event_aux_doc(data text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT lower(coalesce(string_agg(coalesce(o ->> 'data_name', '') || chr(31) || coalesce(o ->> 'data_value', ''), E'\n'), ''))
      FROM jsonb_array_elements(CASE WHEN data IS NULL OR data = '' THEN '[]'::jsonb ELSE data::jsonb END) o
    $$`.execute(db);
  await sql`CREATE TABLE event_aux_search (
    aux_id varchar(24) PRIMARY KEY REFERENCES event_aux_data(id) ON DELETE CASCADE ON UPDATE CASCADE,
    doc text NOT NULL)`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION event_aux_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO event_aux_search(aux_id, doc) VALUES (NEW.id, event_aux_doc(NEW.data_array))
        ON CONFLICT (aux_id) DO UPDATE SET doc = EXCLUDED.doc;
      RETURN NULL;
    END $$`.execute(db);
  // An id change cascades to event_aux_search first (ON UPDATE CASCADE); the upsert then refreshes doc.
  await sql`CREATE TRIGGER event_aux_search_sync AFTER INSERT OR UPDATE OF id, data_array ON event_aux_data
    FOR EACH ROW EXECUTE FUNCTION event_aux_search_sync()`.execute(db);
  await sql`INSERT INTO event_aux_search(aux_id, doc) SELECT a.id, event_aux_doc(a.data_array) FROM event_aux_data a`.execute(
    db,
  );
  const found = await sql<{ schema: string }>`
    SELECT n.nspname AS schema FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = 'pg_trgm'`.execute(
    db,
  );
  const trgmSchema = found.rows[0]?.schema;
  if (!trgmSchema) return; // No pg_trgm (migration 002 says why): the search scans.
  const ops = sql.raw(`"${trgmSchema.replace(/"/g, '""')}".gin_trgm_ops`);
  await sql`CREATE INDEX event_aux_search_doc_trgm_idx ON event_aux_search USING gin (doc ${ops})`.execute(db);
}
