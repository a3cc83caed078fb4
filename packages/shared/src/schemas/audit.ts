import { z } from 'zod/mini';
import { looseTimestampSchema, objectIdSchema, queryIntSchema } from './common.js';

/**
 * One change in the audit trail (docs/security.md#the-audit-trail): who, when, which route, which
 * record, old and new values.
 */
export const auditEntrySchema = z.object({
  seq: z.number(),
  at: z.string(),
  actor_kind: z.enum(['user', 'key', 'none']),
  /** User id or device key id. */
  actor_id: z.nullable(z.string()),
  /** Username or key name. */
  actor_name: z.nullable(z.string()),
  route: z.nullable(z.string()),
  action: z.string(),
  record_type: z.string(),
  record_id: z.nullable(z.string()),
  old_value: z.nullable(z.unknown()),
  new_value: z.nullable(z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({ total: z.number(), entries: z.array(auditEntrySchema) });
export type AuditPage = z.infer<typeof auditPageSchema>;

/** The kinds of records the trail covers. */
export const auditRecordTypes = [
  'event',
  'event_aux_data',
  'cruise',
  'lowering',
  'event_template',
  'user',
  'device_key',
  'custom_var',
  /** Files stored on or removed from a cruise, a lowering or an event (record_id: that record's id). */
  'file',
  /** Checklist definitions (docs/checklists.md). */
  'checklist',
  /** Ticks and skips of a lowering's checklist run. */
  'checklist_run',
  /** The installation's publication settings (docs/publication.md#settings; record_id null). */
  'publication_settings',
] as const;

/** GET audit: filter by actor (username / key name), record, time; paged; CSV on request. */
export const auditQuerySchema = z.strictObject({
  actor: z.optional(z.string().check(z.minLength(1))),
  record_type: z.optional(z.enum(auditRecordTypes)),
  record_id: z.optional(objectIdSchema),
  startTS: z.optional(looseTimestampSchema),
  stopTS: z.optional(looseTimestampSchema),
  offset: z.optional(queryIntSchema(0)),
  limit: z.optional(queryIntSchema(1)),
  format: z.optional(z.enum(['json', 'csv'])),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** The CSV columns of an audit export (values are JSON text). */
export const auditCsvColumns = [
  'seq',
  'at',
  'actor_kind',
  'actor_name',
  'actor_id',
  'route',
  'action',
  'record_type',
  'record_id',
  'old_value',
  'new_value',
] as const;
