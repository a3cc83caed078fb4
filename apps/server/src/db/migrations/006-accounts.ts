import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Accounts a ship's IT can sign off (docs/security.md#browser-session):
 * - per-user revocation marks (epoch seconds): browser sessions and API tokens issued before
 *   them are refused ("sign out everywhere", password change or reset);
 * - device keys: opaque keys for devices and bots, stored as a SHA-256 hash only;
 * - the audit trail: the existing (unused) audit_log table gains the actor, the route and the
 *   old and new values of each change.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ts = 'bigint' as const;
  await db.schema
    .alterTable('users')
    .addColumn('sessions_valid_after', ts, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('api_tokens_valid_after', ts, (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('device_keys')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    /** The first characters of the key, so an admin can tell keys apart without the key. */
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('expires_at', ts)
    .addColumn('last_used_at', ts)
    .addColumn('last_used_address', 'text')
    .addColumn('revoked_at', ts)
    .addColumn('revoked_by', 'text')
    .execute();

  for (const [name, type] of [
    ['actor_kind', 'text'],
    ['actor_name', 'text'],
    ['key_id', 'varchar(24)'],
    ['route', 'text'],
    ['old_value', 'text'],
    ['new_value', 'text'],
  ] as const) {
    await db.schema.alterTable('audit_log').addColumn(name, type).execute();
  }
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
  await db.schema.createIndex('audit_log_user_idx').on('audit_log').columns(['user_id', 'at']).execute();
  await db.schema.createIndex('audit_log_key_idx').on('audit_log').columns(['key_id', 'at']).execute();
  // Append-only below the API too: a trigger refuses updates of audit rows on both engines.
  if (dialect === 'postgres') {
    await sql`create or replace function audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only'; end $$`.execute(db);
    await sql`create trigger audit_log_no_update before update on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  }
}
