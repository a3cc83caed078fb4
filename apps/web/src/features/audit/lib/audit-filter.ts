import { parseUtcInput, type AuditEntry, type auditRecordTypes } from '@bathylog/shared';

export type AuditRecordType = (typeof auditRecordTypes)[number];

/**
 * The audit screen's filter as typed; blanks mean "any". Times are UTC, typed as every date/time
 * field takes them (docs/screens.md#date-and-time-fields): a date alone is the whole day.
 */
export interface AuditFilter {
  actor: string;
  recordType: AuditRecordType | '';
  recordId: string;
  start: string;
  stop: string;
}

export const emptyAuditFilter: AuditFilter = { actor: '', recordType: '', recordId: '', start: '', stop: '' };

/** Record types as the list names them. */
export const auditRecordLabels: Record<AuditRecordType, string> = {
  event: 'Event',
  event_aux_data: 'Aux data',
  cruise: 'Cruise',
  lowering: 'Lowering',
  event_template: 'Event template',
  user: 'User',
  device_key: 'Device key',
  custom_var: 'Custom var',
  file: 'File',
  checklist: 'Checklist',
  checklist_run: 'Checklist run',
  publication_settings: 'Publication settings',
};

const objectId = /^[0-9a-f]{24}$/i;

function isoOf(text: string, edge: 'start' | 'end'): string | undefined {
  const t = text.trim() ? parseUtcInput(text, edge) : null;
  return t === null ? undefined : new Date(t).toISOString();
}

/** Why the filter cannot be sent, or null. */
export function auditFilterError(filter: AuditFilter): string | null {
  const id = filter.recordId.trim();
  if (id !== '' && !objectId.test(id)) return 'Record ID must be a 24-character hex id';
  const start = filter.start.trim() ? parseUtcInput(filter.start, 'start') : undefined;
  const stop = filter.stop.trim() ? parseUtcInput(filter.stop, 'end') : undefined;
  if (start === null) return 'From (UTC): Invalid timestamp';
  if (stop === null) return 'To (UTC): Invalid timestamp';
  if (start !== undefined && stop !== undefined && start > stop) return 'From must be before To';
  return null;
}

/** The GET audit query of a valid filter (times in UTC; a date alone spans its whole day). */
export function auditQuery(filter: AuditFilter): Record<string, string | undefined> {
  const blank = (s: string) => (s.trim() === '' ? undefined : s.trim());
  return {
    actor: blank(filter.actor),
    record_type: filter.recordType || undefined,
    record_id: blank(filter.recordId)?.toLowerCase(),
    startTS: isoOf(filter.start, 'start'),
    stopTS: isoOf(filter.stop, 'end'),
  };
}

/** An entry an admin may restore from: an event that was deleted (alone or in a bulk delete). */
export function isRestorable(entry: AuditEntry): boolean {
  return entry.record_type === 'event' && (entry.action === 'delete' || entry.action === 'bulk_delete');
}

/** The field that names a record in a list, per type. */
const nameFields: Record<string, string> = {
  event: 'event_value',
  event_aux_data: 'data_source',
  cruise: 'cruise_id',
  lowering: 'lowering_id',
  event_template: 'event_name',
  user: 'username',
  device_key: 'name',
  custom_var: 'custom_var_name',
  file: 'files',
};

function asObject(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The record's name in the entry (e.g. an event's value, a user's username), if it carries one. */
export function recordName(entry: AuditEntry): string {
  const field = nameFields[entry.record_type];
  const value = field ? (asObject(entry.new_value)?.[field] ?? asObject(entry.old_value)?.[field]) : undefined;
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(', ');
  return typeof value === 'string' ? value : '';
}

export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * What an update changed: each top-level field whose value differs, old and new as text. Creates
 * and deletes (one side empty) are summarised by the record's name instead.
 */
export function changedFields(entry: AuditEntry): Array<{ field: string; before: string; after: string }> {
  const before = asObject(entry.old_value);
  const after = asObject(entry.new_value);
  if (!before || !after) return [];
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .map((field) => ({ field, before: valueText(before[field]), after: valueText(after[field]) }))
    .filter((c) => c.before !== c.after);
}

/** The file name of an export, e.g. `audit_20261123T2210Z.csv`. */
export function auditCsvFileName(now: Date): string {
  return `audit_${now.toISOString().slice(0, 16).replace(/[-:]/g, '')}Z.csv`;
}
