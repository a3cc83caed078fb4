import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The Audit Trail screen's filters (docs/security.md#the-audit-trail): by user or device key name
 * and by record id alone, newest first. Both read the index in `seq` order instead of scanning the
 * whole trail.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex('audit_log_actor_seq_idx').on('audit_log').columns(['actor_name', 'seq']).execute();
  await db.schema.createIndex('audit_log_record_seq_idx').on('audit_log').columns(['record_id', 'seq']).execute();
}
