import { z } from 'zod';
import { looseTimestampSchema, objectIdSchema, queryIntSchema } from './common.js';

/** One change in the audit trail (issue 11): who, when, which route, which record, old and new values. */
export const auditEntrySchema = z.object({
  seq: z.number(),
  at: z.string(),
  actor_kind: z.enum(['user', 'key', 'none']),
  /** User id or device key id. */
  actor_id: z.string().nullable(),
  /** Username or key name. */
  actor_name: z.string().nullable(),
  route: z.string().nullable(),
  action: z.string(),
  record_type: z.string(),
  record_id: z.string().nullable(),
  old_value: z.unknown().nullable(),
  new_value: z.unknown().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({ total: z.number(), entries: z.array(auditEntrySchema) });
export type AuditPage = z.infer<typeof auditPageSchema>;

/** The kinds of records the trail covers. */
export const auditRecordTypes = ['event', 'event_aux_data', 'cruise', 'lowering', 'event_template', 'user'] as const;

/** GET audit: filter by actor (username / key name), record, time; paged; CSV on request. */
export const auditQuerySchema = z.strictObject({
  actor: z.string().min(1).optional(),
  record_type: z.enum(auditRecordTypes).optional(),
  record_id: objectIdSchema.optional(),
  startTS: looseTimestampSchema.optional(),
  stopTS: looseTimestampSchema.optional(),
  offset: queryIntSchema(0).optional(),
  limit: queryIntSchema(1).optional(),
  format: z.enum(['json', 'csv']).optional(),
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
