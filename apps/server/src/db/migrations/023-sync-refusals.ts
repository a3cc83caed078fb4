import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Shore: the changes a followed ship sent that the shore refused (a record that is not the ship's
 * to change, a malformed record), the latest of each ship, for its status on the Ship to Shore
 * screen, and how many were refused in all (docs/ship-to-shore.md#refused-changes).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('sync_refusals')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('ship_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sync_refusals_ship').on('sync_refusals').columns(['ship_id', 'at']).execute();
  // How many were refused in all (only the latest rows are kept).
  await db.schema
    .alterTable('sync_ships')
    .addColumn('refused_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
