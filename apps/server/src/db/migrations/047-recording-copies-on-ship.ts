import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * `recording_copies.on_ship_only`: 1 for a copy a shore lists but does not hold (a recording's
 * master, and any local copy but the proxy, stay on the ship: docs/video.md#ship-to-shore). Such a
 * copy's `uri` names it on the ship and is never opened on the shore.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('recording_copies')
    .addColumn('on_ship_only', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
