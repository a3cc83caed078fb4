import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * `events.created_by`: the id of the user or device key that created the event, recorded by the
 * server. Who may change or delete an event rests on it, not on `event_author`, a label any
 * script sets. Stored events get the user whose username their author label is (the label a
 * user's own creates got by default); the others get null: only admins and event managers may
 * change those.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('events').addColumn('created_by', 'text').execute();
  // On PostgreSQL every UPDATE of events rebuilds the row's search document (migration 013);
  // the new column is not in it, so the backfill skips that work.
  if (dialect === 'postgres') await sql`ALTER TABLE events DISABLE TRIGGER events_search_sync`.execute(db);
  await sql`UPDATE events SET created_by = (SELECT u.id FROM users u WHERE u.username = events.event_author)
    WHERE EXISTS (SELECT 1 FROM users u WHERE u.username = events.event_author)`.execute(db);
  if (dialect === 'postgres') await sql`ALTER TABLE events ENABLE TRIGGER events_search_sync`.execute(db);
}
