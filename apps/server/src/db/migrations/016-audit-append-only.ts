import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The audit trail is append-only in the database itself: migration 006 refused to rewrite a row;
 * removing one (DELETE, and on PostgreSQL TRUNCATE) is refused as well, whoever is connected. Nothing
 * in the server deletes from it: a wipe, a restore from a backup into an empty database and the
 * tests' throw-away databases never need to.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    // The function of migration 006 (it raises 'audit_log is append-only').
    await sql`create trigger audit_log_no_delete before delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
    await sql`create trigger audit_log_no_truncate before truncate on audit_log
      for each statement execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_delete before delete on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  }
}
