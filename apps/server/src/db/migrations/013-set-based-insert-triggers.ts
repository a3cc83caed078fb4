import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { postgresFulltextDocument } from '../sql/event-search.js';

/**
 * Cheaper event writes (docs/performance.md#durable-event-writes-group-commit).
 *
 * PostgreSQL: the search projection (migration 002, 004) and the CSV shape links (011) of inserted
 * events and aux records are written by one statement-level trigger per table, over the statement's
 * transition table, instead of one PL/pgSQL call per row and per trigger. A shape already known is
 * joined, not looked up by a function call per row. Updates and deletes keep their row triggers
 * (transition tables cannot be combined with column lists). A batch of created events costs about
 * a fifth less database CPU (bench/results, docs/performance.md).
 *
 * Both engines: the audit trail's indexes on (user_id, at) and (key_id, at) go. No query reads
 * them (the trail is filtered by actor name, record and time, migration 009), and every audited
 * write paid for them.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.dropIndex('audit_log_user_idx').ifExists().execute();
  await db.schema.dropIndex('audit_log_key_idx').ifExists().execute();
  if (dialect === 'postgres') await upPostgres(db);
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE OR REPLACE FUNCTION events_inserted_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO event_search(event_id, ts, event_value, doc)
        SELECT n.id, n.ts, n.event_value, lower(${sql.raw(postgresFulltextDocument('n.'))}) FROM inserted_events n
        ON CONFLICT (event_id) DO UPDATE SET ts = EXCLUDED.ts, event_value = EXCLUDED.event_value, doc = EXCLUDED.doc;
      -- OFFSET 0 computes each shape once; csv_shape_id runs only for a shape not stored yet.
      INSERT INTO event_csv_shapes(event_id, record_id, ts, shape_id)
        SELECT s.id, '', s.ts, coalesce(c.id, csv_shape_id(s.shape))
        FROM (SELECT n.id, n.ts, csv_options_shape(n.event_options) AS shape FROM inserted_events n OFFSET 0) s
        LEFT JOIN csv_shapes c ON c.shape = s.shape
        WHERE s.shape IS NOT NULL;
      RETURN NULL;
    END $$`.execute(db);
  await sql`DROP TRIGGER events_search_sync ON events`.execute(db);
  await sql`CREATE TRIGGER events_search_sync AFTER UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION event_search_sync()`.execute(db);
  await sql`DROP TRIGGER events_csv_shape_ai ON events`.execute(db);
  await sql`CREATE TRIGGER events_csv_shape_ad AFTER DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_csv_shape_sync()`.execute(db);
  await sql`CREATE TRIGGER events_inserted_sync AFTER INSERT ON events
    REFERENCING NEW TABLE AS inserted_events
    FOR EACH STATEMENT EXECUTE FUNCTION events_inserted_sync()`.execute(db);

  await sql`CREATE OR REPLACE FUNCTION event_aux_inserted_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO event_aux_search(aux_id, doc)
        SELECT n.id, event_aux_doc(n.data_array) FROM inserted_aux n
        ON CONFLICT (aux_id) DO UPDATE SET doc = EXCLUDED.doc;
      INSERT INTO event_csv_shapes(event_id, record_id, ts, shape_id)
        SELECT s.event_id, s.id, e.ts, coalesce(c.id, csv_shape_id(s.shape))
        FROM (SELECT n.id, n.event_id, csv_aux_shape(n.data_source, n.data_array) AS shape FROM inserted_aux n OFFSET 0) s
        JOIN events e ON e.id = s.event_id
        LEFT JOIN csv_shapes c ON c.shape = s.shape
        WHERE s.shape IS NOT NULL
        ON CONFLICT (event_id, record_id) DO UPDATE SET ts = EXCLUDED.ts, shape_id = EXCLUDED.shape_id;
      RETURN NULL;
    END $$`.execute(db);
  await sql`DROP TRIGGER event_aux_search_sync ON event_aux_data`.execute(db);
  await sql`CREATE TRIGGER event_aux_search_sync AFTER UPDATE OF id, data_array ON event_aux_data
    FOR EACH ROW EXECUTE FUNCTION event_aux_search_sync()`.execute(db);
  await sql`DROP TRIGGER event_aux_csv_shape_sync ON event_aux_data`.execute(db);
  await sql`CREATE TRIGGER event_aux_csv_shape_sync AFTER UPDATE OR DELETE ON event_aux_data
    FOR EACH ROW EXECUTE FUNCTION event_aux_csv_shape_sync()`.execute(db);
  await sql`CREATE TRIGGER event_aux_inserted_sync AFTER INSERT ON event_aux_data
    REFERENCING NEW TABLE AS inserted_aux
    FOR EACH STATEMENT EXECUTE FUNCTION event_aux_inserted_sync()`.execute(db);
}
