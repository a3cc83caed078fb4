import {
  auditCsvColumns,
  csvDocument,
  toIso,
  type AuditEntry,
  type AuditPage,
  type AuditQuery,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { parseJson } from '../../lib/json.js';
import { AuditRepository, type AuditFilter, type AuditRow } from './audit.repository.js';

export function toAuditEntry(row: AuditRow): AuditEntry {
  const kind = row.actor_kind === 'key' || row.actor_kind === 'user' ? row.actor_kind : 'none';
  return {
    seq: Number(row.seq),
    at: toIso(Number(row.at)),
    actor_kind: kind,
    actor_id: kind === 'key' ? row.key_id : row.user_id,
    actor_name: row.actor_name,
    route: row.route,
    action: row.action,
    record_type: row.record_type,
    record_id: row.record_id,
    old_value: row.old_value === null ? null : parseJson<unknown>(row.old_value, null),
    new_value: row.new_value === null ? null : parseJson<unknown>(row.new_value, null),
  };
}

/** Reading the audit trail (admins): filtered, paged, newest first; CSV for export. */
export class AuditService {
  constructor(private readonly ctx: AppContext) {}

  private filterOf(query: AuditQuery): AuditFilter {
    return {
      ...(query.actor !== undefined ? { actor: query.actor } : {}),
      ...(query.record_type !== undefined ? { recordType: query.record_type } : {}),
      ...(query.record_id !== undefined ? { recordId: query.record_id } : {}),
      ...(query.startTS !== undefined ? { start: query.startTS } : {}),
      ...(query.stopTS !== undefined ? { stop: query.stopTS } : {}),
    };
  }

  async page(query: AuditQuery): Promise<AuditPage> {
    const repo = new AuditRepository(this.ctx.database.db);
    const filter = this.filterOf(query);
    const [total, rows] = await Promise.all([
      repo.count(filter),
      repo.list(filter, { offset: query.offset ?? 0, limit: query.limit ?? 50 }),
    ]);
    return { total, entries: rows.map(toAuditEntry) };
  }

  /** Every matching entry (or the page asked for) as CSV; values as JSON text. */
  async csv(query: AuditQuery): Promise<string> {
    const repo = new AuditRepository(this.ctx.database.db);
    const rows = await repo.list(this.filterOf(query), {
      ...(query.offset !== undefined ? { offset: query.offset } : {}),
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
    });
    return csvDocument(
      auditCsvColumns,
      rows.map((row) => {
        const e = toAuditEntry(row);
        return {
          ...e,
          old_value: e.old_value === null ? '' : JSON.stringify(e.old_value),
          new_value: e.new_value === null ? '' : JSON.stringify(e.new_value),
        };
      }),
    );
  }
}
