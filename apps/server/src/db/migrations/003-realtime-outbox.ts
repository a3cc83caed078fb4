import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * PostgreSQL only: bus messages too large for a NOTIFY payload (8000 bytes) wait here for the
 * other server processes to fetch them by id (realtime/pg-bus.ts). SQLite keeps the bus in-process.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.schema
    .createTable('realtime_outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('realtime_outbox_created_idx').on('realtime_outbox').column('created_at').execute();
}
