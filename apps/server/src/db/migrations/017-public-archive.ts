import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The public archive (docs/public-archive.md): a cruise is public or not (`cruise_public`, 0/1) and
 * may carry an embargo end (`cruise_embargo_until`, epoch ms, null for none). A lowering's
 * `lowering_public` is null while it inherits its cruise's setting (both fields), 0/1 once it sets
 * its own. Existing records stay private.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('cruises')
    .addColumn('cruise_public', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('cruises').addColumn('cruise_embargo_until', 'bigint').execute();
  await db.schema.alterTable('lowerings').addColumn('lowering_public', 'integer').execute();
  await db.schema.alterTable('lowerings').addColumn('lowering_embargo_until', 'bigint').execute();
}
