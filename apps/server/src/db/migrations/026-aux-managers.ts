import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Built-in aux-data managers (docs/aux-managers.md):
 * - `aux_managers`: one per data source an admin (or the managers file) configured: its kind, switches, limits
 *   and its configuration as the vessel's Sealog-style YAML (`config_yaml`). `file_hash` is the hash of the
 *   managers-file entry it was last read from (null: made in the client), so a file edited between starts
 *   wins and an edit in the client survives a restart with an unchanged file.
 * - `aux_manager_health`: the leading process's view of each manager (state, times, last error, counters as
 *   JSON), so every process answers the same health.
 * - `aux_manager_writes`: which manager wrote an event's record of a data source, for which event time, how
 *   (realtime, buffered, backfilled) and a hash of the data_array it wrote: a record whose data no longer matches was replaced by
 *   another writer (a vessel's own script) and is left alone.
 * Times are epoch ms; flags 0/1.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('aux_managers')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('required', 'integer', (c) => c.notNull())
    .addColumn('max_age_ms', 'integer', (c) => c.notNull())
    .addColumn('timeout_ms', 'integer', (c) => c.notNull())
    .addColumn('config_yaml', 'text', (c) => c.notNull())
    .addColumn('file_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('aux_manager_health')
    .addColumn('manager_id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('last_value_ts', 'bigint')
    .addColumn('last_success_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'bigint')
    .addColumn('counters', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('aux_manager_writes')
    .addColumn('event_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('data_source', 'text', (c) => c.notNull())
    .addColumn('event_ts', 'bigint', (c) => c.notNull())
    .addColumn('manager_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('manager_name', 'text', (c) => c.notNull())
    .addColumn('source_kind', 'text', (c) => c.notNull())
    .addColumn('provenance', 'text', (c) => c.notNull())
    .addColumn('value_ts', 'bigint')
    .addColumn('data_hash', 'text', (c) => c.notNull())
    .addColumn('written_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('aux_manager_writes_pk', ['event_id', 'data_source'])
    .execute();
}
