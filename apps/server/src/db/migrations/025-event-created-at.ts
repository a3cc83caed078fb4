import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * `events.created_at`: when this server stored the event (epoch ms), set by the server on every
 * create. The creator's hour to delete an event runs from it, not from the time inside the event
 * id, which a client may choose (docs/security.md#changing-and-deleting-events). Events stored
 * before this migration get null: their creator's hour counts as passed, so only admins and event
 * managers delete them (an event created in the hour before the upgrade loses the rest of its hour).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('events').addColumn('created_at', 'bigint').execute();
}
