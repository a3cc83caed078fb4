import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AuthContext } from '../../plugins/auth.js';
import { AuditRepository, type NewAuditRow } from './audit.repository.js';

export interface Change {
  action: string;
  record_type: string;
  record_id: string | null;
  /** Wire values (JSON-serialisable); null when there was none (create) or is none (delete). */
  old_value?: unknown;
  new_value?: unknown;
}

/**
 * A change made without a token by the user it changes: a self-registration, or a password reset
 * through the emailed link (whoever holds the link acts as that user).
 */
export interface SelfActor {
  self: { id: string; username: string };
  route: string;
}

/**
 * Records a change in the audit trail. Services call it with the transaction of the change itself,
 * so a row exists exactly when the change happened (docs/security.md#the-audit-trail). The actor is the
 * caller (a user or a device key) and the route it called; `null` for unauthenticated changes.
 */
export async function recordChange(
  trx: Kysely<DB> | Transaction<DB>,
  actor: AuthContext | SelfActor | null,
  change: Change,
): Promise<void> {
  await new AuditRepository(trx).append(auditRow(actor, change));
}

/** The audit row of a change (what `recordChange` stores), for writers that store it themselves. */
export function auditRow(actor: AuthContext | SelfActor | null, change: Change): NewAuditRow {
  const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
  if (actor && 'self' in actor) {
    return {
      at: Date.now(),
      user_id: actor.self.id,
      key_id: null,
      actor_kind: 'user',
      actor_name: actor.self.username,
      route: actor.route,
      action: change.action,
      record_type: change.record_type,
      record_id: change.record_id,
      old_value: json(change.old_value),
      new_value: json(change.new_value),
    };
  }
  return {
    at: Date.now(),
    user_id: actor && !actor.key ? actor.user.id : null,
    key_id: actor?.key ? actor.key.id : null,
    actor_kind: actor ? (actor.key ? 'key' : 'user') : 'none',
    actor_name: actor ? actor.user.username : null,
    route: actor?.route ?? null,
    action: change.action,
    record_type: change.record_type,
    record_id: change.record_id,
    old_value: json(change.old_value),
    new_value: json(change.new_value),
  };
}

/**
 * The audit change of files stored or removed on a record (cruise and lowering files, event
 * attachments): record_type `file`, the id of the record the files belong to, their names.
 */
export function fileChange(
  action: 'upload' | 'delete',
  owner: { record_type: 'cruise' | 'lowering' | 'event'; record_id: string },
  files: readonly string[],
): Change {
  const value = { record_type: owner.record_type, files };
  return {
    action,
    record_type: 'file',
    record_id: owner.record_id,
    ...(action === 'upload' ? { new_value: value } : { old_value: value }),
  };
}
