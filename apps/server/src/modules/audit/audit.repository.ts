import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AuditLogTable, DB } from '../../db/schema.js';

export type AuditRow = Selectable<AuditLogTable>;

export interface NewAuditRow {
  at: number;
  user_id: string | null;
  key_id: string | null;
  actor_kind: 'user' | 'key' | 'none';
  actor_name: string | null;
  route: string | null;
  action: string;
  record_type: string;
  record_id: string | null;
  old_value: string | null;
  new_value: string | null;
}

export interface AuditFilter {
  actor?: string;
  recordType?: string;
  recordId?: string;
  start?: number;
  stop?: number;
}

/** The audit trail: append and read, nothing else (the table is append-only). */
export class AuditRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  async append(row: NewAuditRow): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({ ...row, detail: null })
      .execute();
  }

  async appendMany(rows: readonly NewAuditRow[]): Promise<void> {
    // Within both engines' bound-parameter limits (12 columns).
    for (let i = 0; i < rows.length; i += 500) {
      await this.db
        .insertInto('audit_log')
        .values(rows.slice(i, i + 500).map((row) => ({ ...row, detail: null })))
        .execute();
    }
  }

  private filtered(filter: AuditFilter) {
    let q = this.db.selectFrom('audit_log');
    if (filter.actor !== undefined) q = q.where('actor_name', '=', filter.actor);
    if (filter.recordType !== undefined) q = q.where('record_type', '=', filter.recordType);
    if (filter.recordId !== undefined) q = q.where('record_id', '=', filter.recordId);
    if (filter.start !== undefined) q = q.where('at', '>=', filter.start);
    if (filter.stop !== undefined) q = q.where('at', '<=', filter.stop);
    return q;
  }

  /** Newest first. */
  async list(filter: AuditFilter, page: { offset?: number; limit?: number }): Promise<AuditRow[]> {
    let q = this.filtered(filter).selectAll().orderBy('seq', 'desc');
    if (page.limit !== undefined) q = q.limit(page.limit);
    if (page.offset) q = q.offset(page.offset).$if(page.limit === undefined, (qb) => qb.limit(Number.MAX_SAFE_INTEGER));
    return q.execute();
  }

  /** Newest first, after (below) a seq: keyset chunks for streaming exports. */
  async listBelow(filter: AuditFilter, belowSeq: number | null, limit: number): Promise<AuditRow[]> {
    let q = this.filtered(filter).selectAll();
    if (belowSeq !== null) q = q.where('seq', '<', belowSeq);
    return q.orderBy('seq', 'desc').limit(limit).execute();
  }

  async count(filter: AuditFilter): Promise<number> {
    const row = await this.filtered(filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findBySeq(seq: number): Promise<AuditRow | undefined> {
    return this.db.selectFrom('audit_log').selectAll().where('seq', '=', seq).executeTakeFirst();
  }
}
