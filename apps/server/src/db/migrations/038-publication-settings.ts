import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * `publication_settings`: the installation's settings for standard publication (docs/publication.md):
 * one row per part (`dataset`, `measurements`, `event_lists`), its value a JSON document checked by
 * the shared schema when read and written.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('publication_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .execute();
}
