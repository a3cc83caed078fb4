import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The CSV column shapes of events, kept at write time
 * (docs/performance.md#event-exports-one-read-written-by-the-database), so an event CSV export
 * names its header columns with index probes instead of reading the matching rows twice.
 *
 * An event's CSV columns come from its option names (in order) and, per aux record, the record's
 * source and data names (in order); see `flattenEventForCsv` in packages/shared. Each distinct
 * such list is one row of `csv_shapes` (`shape`: `o` + JSON array of option names, or `a` + JSON
 * `[source, [data names]]`). `event_csv_shapes` links every event with options and every aux
 * record with data to its shape, with the event's time beside it: the index on (shape_id, ts)
 * answers "does any event in this window have this shape" with one probe per shape. Triggers on
 * `events` and `event_aux_data` keep it in step on every write path (routes, imports, tools).
 * Records without names (no options, empty data) add no columns and have no link row.
 *
 * Shapes are never deleted: an unused one is a row no probe finds.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') await upSqlite(db);
  else await upPostgres(db);
}

/** SQLite: the shape text of a row's options (`o[...]`); only for rows with `sqliteHasOptions`. */
function sqliteOptionsShape(row: string): string {
  return `('o' || (SELECT json_group_array(json_extract(o.value, '$.event_option_name')) FROM json_each(${row}.event_options) o))`;
}

function sqliteHasOptions(row: string): string {
  // The text test first: most events (ASNAP) have no options, and it spares parsing their JSON.
  return `(${row}.event_options <> '[]' AND json_valid(${row}.event_options) AND json_array_length(${row}.event_options) > 0)`;
}

/** SQLite: the shape text of an aux record (`a["source",[...]]`); only for rows with `sqliteHasData`. */
function sqliteAuxShape(row: string): string {
  return `('a' || json_array(${row}.data_source, json((SELECT json_group_array(json_extract(d.value, '$.data_name')) FROM json_each(${row}.data_array) d))))`;
}

function sqliteHasData(row: string): string {
  return `(${row}.data_array <> '[]' AND json_valid(${row}.data_array) AND json_array_length(${row}.data_array) > 0)`;
}

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`CREATE TABLE csv_shapes (id INTEGER PRIMARY KEY, shape TEXT NOT NULL UNIQUE)`);
  // record_id: '' for the event's options, the aux record's id for its data.
  await run(`CREATE TABLE event_csv_shapes (
    event_id TEXT NOT NULL,
    record_id TEXT NOT NULL,
    ts INTEGER NOT NULL,
    shape_id INTEGER NOT NULL,
    PRIMARY KEY (event_id, record_id)) WITHOUT ROWID`);
  await run(`CREATE INDEX event_csv_shapes_shape_ts_idx ON event_csv_shapes (shape_id, ts)`);

  const linkOptions = (row: string) => `
    INSERT OR IGNORE INTO csv_shapes(shape) SELECT ${sqliteOptionsShape(row)} WHERE ${sqliteHasOptions(row)};
    INSERT OR REPLACE INTO event_csv_shapes(event_id, record_id, ts, shape_id)
      SELECT ${row}.id, '', ${row}.ts, s.id FROM csv_shapes s WHERE ${sqliteHasOptions(row)} AND s.shape = ${sqliteOptionsShape(row)};`;
  const linkAux = (row: string) => `
    INSERT OR IGNORE INTO csv_shapes(shape) SELECT ${sqliteAuxShape(row)} WHERE ${sqliteHasData(row)};
    INSERT OR REPLACE INTO event_csv_shapes(event_id, record_id, ts, shape_id)
      SELECT ${row}.event_id, ${row}.id, e.ts, s.id FROM events e CROSS JOIN csv_shapes s
      WHERE ${sqliteHasData(row)} AND e.id = ${row}.event_id AND s.shape = ${sqliteAuxShape(row)};`;

  await run(`CREATE TRIGGER events_csv_shape_ai AFTER INSERT ON events BEGIN ${linkOptions('new')} END`);
  // The aux records' links follow the event's id and time; its options link is made anew.
  await run(`CREATE TRIGGER events_csv_shape_au AFTER UPDATE OF id, ts, event_options ON events BEGIN
    DELETE FROM event_csv_shapes WHERE event_id = old.id AND record_id = '';
    UPDATE event_csv_shapes SET event_id = new.id, ts = new.ts WHERE event_id = old.id;
    ${linkOptions('new')}
  END`);
  await run(`CREATE TRIGGER events_csv_shape_ad AFTER DELETE ON events BEGIN
    DELETE FROM event_csv_shapes WHERE event_id = old.id;
  END`);
  await run(`CREATE TRIGGER event_aux_csv_shape_ai AFTER INSERT ON event_aux_data BEGIN ${linkAux('new')} END`);
  await run(`CREATE TRIGGER event_aux_csv_shape_au AFTER UPDATE ON event_aux_data BEGIN
    DELETE FROM event_csv_shapes WHERE event_id = old.event_id AND record_id = old.id;
    ${linkAux('new')}
  END`);
  await run(`CREATE TRIGGER event_aux_csv_shape_ad AFTER DELETE ON event_aux_data BEGIN
    DELETE FROM event_csv_shapes WHERE event_id = old.event_id AND record_id = old.id;
  END`);

  // Events and aux records stored before this migration.
  await run(
    `INSERT OR IGNORE INTO csv_shapes(shape) SELECT DISTINCT ${sqliteOptionsShape('e')} FROM events e WHERE ${sqliteHasOptions('e')}`,
  );
  await run(`INSERT INTO event_csv_shapes(event_id, record_id, ts, shape_id)
    SELECT e.id, '', e.ts, s.id FROM events e JOIN csv_shapes s ON s.shape = ${sqliteOptionsShape('e')} WHERE ${sqliteHasOptions('e')}`);
  await run(
    `INSERT OR IGNORE INTO csv_shapes(shape) SELECT DISTINCT ${sqliteAuxShape('a')} FROM event_aux_data a WHERE ${sqliteHasData('a')}`,
  );
  await run(`INSERT OR IGNORE INTO event_csv_shapes(event_id, record_id, ts, shape_id)
    SELECT a.event_id, a.id, e.ts, s.id FROM event_aux_data a JOIN events e ON e.id = a.event_id
      JOIN csv_shapes s ON s.shape = ${sqliteAuxShape('a')} WHERE ${sqliteHasData('a')}`);
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE csv_shapes (id bigserial PRIMARY KEY, shape text NOT NULL UNIQUE)`.execute(db);
  await sql`CREATE TABLE event_csv_shapes (
    event_id varchar(24) NOT NULL,
    record_id varchar(24) NOT NULL,
    ts bigint NOT NULL,
    shape_id bigint NOT NULL,
    PRIMARY KEY (event_id, record_id))`.execute(db);
  await sql`CREATE INDEX event_csv_shapes_shape_ts_idx ON event_csv_shapes (shape_id, ts)`.execute(db);

  // The shape texts (null: no names, so no columns and no link). Text that is not a JSON array has
  // no names here, as the export reads it. (Text that is not JSON at all, which no write path of
  // the app stores, is refused by the cast: PostgreSQL 15 cannot test it without a subtransaction.)
  await sql`CREATE OR REPLACE FUNCTION csv_options_shape(opts text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT 'o' || json_agg(o.v ->> 'event_option_name' ORDER BY o.n)::text
      FROM json_array_elements(CASE WHEN btrim(opts, E' \\t\\n\\r') LIKE '[%' THEN opts::json ELSE '[]'::json END) WITH ORDINALITY o(v, n)
    $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION csv_aux_shape(source text, data text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT 'a' || json_build_array(source, json_agg(d.v ->> 'data_name' ORDER BY d.n))::text
      FROM json_array_elements(CASE WHEN btrim(data, E' \\t\\n\\r') LIKE '[%' THEN data::json ELSE '[]'::json END) WITH ORDINALITY d(v, n)
      HAVING count(*) > 0
    $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION csv_shape_id(text) RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE found bigint;
    BEGIN
      SELECT id INTO found FROM csv_shapes WHERE shape = $1;
      IF found IS NULL THEN
        INSERT INTO csv_shapes(shape) VALUES ($1) ON CONFLICT (shape) DO NOTHING;
        SELECT id INTO found FROM csv_shapes WHERE shape = $1;
      END IF;
      RETURN found;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION events_csv_shape_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE shape text;
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        DELETE FROM event_csv_shapes WHERE event_id = OLD.id AND (TG_OP = 'DELETE' OR record_id = '');
        IF TG_OP = 'DELETE' THEN RETURN NULL; END IF;
        IF OLD.id <> NEW.id OR OLD.ts <> NEW.ts THEN
          UPDATE event_csv_shapes SET event_id = NEW.id, ts = NEW.ts WHERE event_id = OLD.id;
        END IF;
      END IF;
      shape := csv_options_shape(NEW.event_options);
      IF shape IS NOT NULL THEN
        INSERT INTO event_csv_shapes(event_id, record_id, ts, shape_id) VALUES (NEW.id, '', NEW.ts, csv_shape_id(shape));
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER events_csv_shape_ai AFTER INSERT OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_csv_shape_sync()`.execute(db);
  await sql`CREATE TRIGGER events_csv_shape_au AFTER UPDATE OF id, ts, event_options ON events
    FOR EACH ROW EXECUTE FUNCTION events_csv_shape_sync()`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION event_aux_csv_shape_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE shape text;
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        DELETE FROM event_csv_shapes WHERE event_id = OLD.event_id AND record_id = OLD.id;
        IF TG_OP = 'DELETE' THEN RETURN NULL; END IF;
      END IF;
      shape := csv_aux_shape(NEW.data_source, NEW.data_array);
      IF shape IS NOT NULL THEN
        INSERT INTO event_csv_shapes(event_id, record_id, ts, shape_id)
          SELECT NEW.event_id, NEW.id, e.ts, csv_shape_id(shape) FROM events e WHERE e.id = NEW.event_id
          ON CONFLICT (event_id, record_id) DO UPDATE SET ts = EXCLUDED.ts, shape_id = EXCLUDED.shape_id;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER event_aux_csv_shape_sync AFTER INSERT OR UPDATE OR DELETE ON event_aux_data
    FOR EACH ROW EXECUTE FUNCTION event_aux_csv_shape_sync()`.execute(db);

  // Events and aux records stored before this migration.
  await sql`INSERT INTO csv_shapes(shape)
    SELECT DISTINCT s FROM (SELECT csv_options_shape(e.event_options) AS s FROM events e) x WHERE s IS NOT NULL
    UNION SELECT DISTINCT s FROM (SELECT csv_aux_shape(a.data_source, a.data_array) AS s FROM event_aux_data a) y WHERE s IS NOT NULL`.execute(
    db,
  );
  await sql`INSERT INTO event_csv_shapes(event_id, record_id, ts, shape_id)
    SELECT e.id, '', e.ts, s.id FROM events e JOIN csv_shapes s ON s.shape = csv_options_shape(e.event_options)`.execute(
    db,
  );
  await sql`INSERT INTO event_csv_shapes(event_id, record_id, ts, shape_id)
    SELECT a.event_id, a.id, e.ts, s.id FROM event_aux_data a JOIN events e ON e.id = a.event_id
      JOIN csv_shapes s ON s.shape = csv_aux_shape(a.data_source, a.data_array)`.execute(db);
}
