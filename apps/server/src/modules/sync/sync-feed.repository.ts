import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DB } from '../../db/schema.js';

/**
 * A position in the audit trail. On SQLite rows commit in `seq` order (one writer at a time), so
 * the position is the seq; on PostgreSQL a lower seq may commit after a higher one, so rows are
 * ordered by their transaction id first and served only once every transaction with a lower id
 * has ended (docs/ship-to-shore.md#the-cursor).
 */
export interface FeedPosition {
  xid: string;
  seq: number;
}

export const feedStart: FeedPosition = { xid: '0', seq: 0 };

/** The audit record types the feed follows. */
export const followedAuditTypes = [
  'cruise',
  'lowering',
  'event',
  'event_aux_data',
  'event_template',
  'file',
  'recording',
];

export interface FeedAuditRow {
  xid: string;
  seq: number;
  action: string;
  record_type: string;
  record_id: string | null;
  old_value: string | null;
  new_value: string | null;
}

/** The change feed's reads of the audit trail: keyset pages on an index, never a full scan. */
export class SyncFeedRepository {
  constructor(private readonly database: Database) {}

  private get db(): Kysely<DB> {
    return this.database.db;
  }

  private get pg(): boolean {
    return this.database.dialect === 'postgres';
  }

  /** The last position every reader can see for good (no lower one can still commit). */
  async head(): Promise<FeedPosition> {
    if (this.pg) {
      const { rows } = await sql<{ xid: string; seq: string }>`select xid::text as xid, seq from audit_log
        where xid < pg_snapshot_xmin(pg_current_snapshot()) order by xid desc, seq desc limit 1`.execute(this.db);
      const row = rows[0];
      return row ? { xid: row.xid, seq: Number(row.seq) } : feedStart;
    }
    const row = await this.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    return { xid: '0', seq: Number(row?.seq ?? 0) };
  }

  /** Up to `limit` followed rows after `after`, up to the settled head, in feed order. */
  async rowsAfter(after: FeedPosition, limit: number): Promise<FeedAuditRow[]> {
    if (this.pg) {
      const { rows } = await sql<FeedAuditRow>`select xid::text as xid, seq, action, record_type, record_id,
          old_value, new_value from audit_log
        where (xid, seq) > (${after.xid}::xid8, ${after.seq})
          and xid < pg_snapshot_xmin(pg_current_snapshot())
          and record_type in (${sql.join(followedAuditTypes)})
        order by xid, seq limit ${limit}`.execute(this.db);
      return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
    }
    const rows = await this.db
      .selectFrom('audit_log')
      .select(['seq', 'action', 'record_type', 'record_id', 'old_value', 'new_value'])
      .where('seq', '>', after.seq)
      .where('record_type', 'in', followedAuditTypes)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, xid: '0', seq: Number(r.seq) }));
  }

  /** How many followed rows, and how many bytes of values, lie after a position (up to the head). */
  async behind(after: FeedPosition): Promise<{ records: number; bytes: number }> {
    if (this.pg) {
      const { rows } = await sql<{ n: string; bytes: string | null }>`select count(*) as n,
          sum(coalesce(length(new_value), 0) + 200) as bytes from audit_log
        where (xid, seq) > (${after.xid}::xid8, ${after.seq})
          and xid < pg_snapshot_xmin(pg_current_snapshot())
          and record_type in (${sql.join(followedAuditTypes)})`.execute(this.db);
      return { records: Number(rows[0]?.n ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
    }
    const row = await this.db
      .selectFrom('audit_log')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>(sql`coalesce(length(new_value), 0) + 200`).as('bytes'),
      ])
      .where('seq', '>', after.seq)
      .where('record_type', 'in', followedAuditTypes)
      .executeTakeFirst();
    return { records: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  /** The ship each of these events was copied from, by id; events of this server's own are absent. */
  async eventOrigins(ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await this.db
        .selectFrom('sync_origins')
        .select(['record_id', 'ship_id'])
        .where('record_type', '=', 'event')
        .where('record_id', 'in', unique.slice(i, i + 500))
        .execute();
      for (const r of rows) out.set(r.record_id, r.ship_id);
    }
    return out;
  }

  /** The ts of each of these events that exists, by id (in chunks the drivers accept). */
  async eventTimes(ids: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await this.db
        .selectFrom('events')
        .select(['id', 'ts'])
        .where('id', 'in', unique.slice(i, i + 500))
        .execute();
      for (const r of rows) out.set(r.id, Number(r.ts));
    }
    return out;
  }

  /** A cruise's or lowering's hidden flag and access list (as stored), or undefined when there is none. */
  async recordAccess(
    kind: 'cruise' | 'lowering',
    id: string,
  ): Promise<{ hidden: number; accessList: string } | undefined> {
    if (kind === 'cruise') {
      const row = await this.db
        .selectFrom('cruises')
        .select(['cruise_hidden', 'cruise_access_list'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row && { hidden: row.cruise_hidden, accessList: row.cruise_access_list };
    }
    const row = await this.db
      .selectFrom('lowerings')
      .select(['lowering_hidden', 'lowering_access_list'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { hidden: row.lowering_hidden, accessList: row.lowering_access_list };
  }
}
