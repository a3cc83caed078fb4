import { Readable } from 'node:stream';
import {
  auditCsvColumns,
  csvHeader,
  csvRow,
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

  /**
   * Every matching entry (or the page asked for) as CSV, newest first, values as JSON text. Streamed
   * in keyset chunks, so a long trail is never held in memory.
   */
  csv(query: AuditQuery): Readable {
    const repo = new AuditRepository(this.ctx.database.db);
    const filter = this.filterOf(query);
    const wanted = query.limit ?? Number.POSITIVE_INFINITY;
    async function* lines() {
      yield csvHeader(auditCsvColumns);
      let skip = query.offset ?? 0;
      let sent = 0;
      let below: number | null = null;
      while (sent < wanted) {
        const rows = await repo.listBelow(filter, below, csvChunk);
        if (rows.length === 0) return;
        below = Number(rows[rows.length - 1]!.seq);
        const kept = rows.slice(Math.min(skip, rows.length)).slice(0, wanted - sent);
        skip = Math.max(0, skip - rows.length);
        sent += kept.length;
        if (kept.length > 0) yield `\n${kept.map(csvLine).join('\n')}`;
      }
    }
    return Readable.from(lines(), { objectMode: false });
  }
}

const csvChunk = 1000;

function csvLine(row: AuditRow): string {
  // The values are stored as our own JSON text: written as they are, not parsed and re-serialised.
  const e = toAuditEntry({ ...row, old_value: null, new_value: null });
  const cells: Record<(typeof auditCsvColumns)[number], unknown> = {
    ...e,
    old_value: row.old_value ?? '',
    new_value: row.new_value ?? '',
  };
  return csvRow(auditCsvColumns.map((c) => cells[c]));
}
