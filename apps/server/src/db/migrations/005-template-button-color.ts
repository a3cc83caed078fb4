import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/** `event_button_color` on templates (Sealog 2.4.5): a CSS hex colour for the console button, or null. */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('event_templates').addColumn('event_button_color', 'text').execute();
}
