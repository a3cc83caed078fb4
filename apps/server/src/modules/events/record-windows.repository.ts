import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';

/**
 * Cruises and lowerings as the event routes see them: time windows. Events belong to a cruise or
 * lowering by time only (docs/wire.md#membership-by-time), so these reads are all the events module needs.
 */
export interface RecordWindow {
  id: string;
  /** The human id (`cruise_id` / `lowering_id`). */
  humanId: string;
  start_ts: number;
  stop_ts: number;
  hidden: boolean;
  accessList: string[];
}

export type RecordKind = 'cruise' | 'lowering';

export class RecordWindowsRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  async find(kind: RecordKind, id: string): Promise<RecordWindow | undefined> {
    return (await this.findWhere(kind, 'id', id))[0];
  }

  /** The records with a human id (`S0492`), earliest start first. */
  async findByHumanId(kind: RecordKind, humanId: string): Promise<RecordWindow[]> {
    return this.findWhere(kind, 'human', humanId);
  }

  private async findWhere(kind: RecordKind, by: 'id' | 'human', value: string): Promise<RecordWindow[]> {
    if (kind === 'cruise') {
      const rows = await this.db
        .selectFrom('cruises')
        .selectAll()
        .where(by === 'id' ? 'id' : 'cruise_id', '=', value)
        .orderBy('start_ts')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        humanId: row.cruise_id,
        start_ts: Number(row.start_ts),
        stop_ts: Number(row.stop_ts),
        hidden: !!row.cruise_hidden,
        accessList: parseJson<string[]>(row.cruise_access_list, []),
      }));
    }
    const rows = await this.db
      .selectFrom('lowerings')
      .selectAll()
      .where(by === 'id' ? 'id' : 'lowering_id', '=', value)
      .orderBy('start_ts')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      humanId: row.lowering_id,
      start_ts: Number(row.start_ts),
      stop_ts: Number(row.stop_ts),
      hidden: !!row.lowering_hidden,
      accessList: parseJson<string[]>(row.lowering_access_list, []),
    }));
  }

  /** The lowerings lying wholly inside [lo, hi] (a cruise's lowerings), earliest start first. */
  async loweringsWithin(lo: number, hi: number): Promise<RecordWindow[]> {
    const rows = await this.db
      .selectFrom('lowerings')
      .selectAll()
      .where('start_ts', '>=', lo)
      .where('stop_ts', '<=', hi)
      .orderBy('start_ts')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      humanId: row.lowering_id,
      start_ts: Number(row.start_ts),
      stop_ts: Number(row.stop_ts),
      hidden: !!row.lowering_hidden,
      accessList: parseJson<string[]>(row.lowering_access_list, []),
    }));
  }

  /** Every window of a kind, earliest start first (the order `add_record_ids` picks the first match in). */
  async listWindows(kind: RecordKind): Promise<Array<{ humanId: string; start_ts: number; stop_ts: number }>> {
    const rows =
      kind === 'cruise'
        ? await this.db
            .selectFrom('cruises')
            .select(['cruise_id as humanId', 'start_ts', 'stop_ts', 'id'])
            .orderBy('start_ts')
            .orderBy('id')
            .execute()
        : await this.db
            .selectFrom('lowerings')
            .select(['lowering_id as humanId', 'start_ts', 'stop_ts', 'id'])
            .orderBy('start_ts')
            .orderBy('id')
            .execute();
    return rows.map((r) => ({ humanId: r.humanId, start_ts: Number(r.start_ts), stop_ts: Number(r.stop_ts) }));
  }
}

/**
 * `add_record_ids`: the human cruise_id and lowering_id of the first cruise and lowering whose
 * [start_ts, stop_ts] holds the event's ts (hidden status ignored, as in Sealog). Loaded once per
 * request; there are few cruises and lowerings next to the events.
 */
export class RecordIds {
  private constructor(
    private readonly cruises: Array<{ humanId: string; start_ts: number; stop_ts: number }>,
    private readonly lowerings: Array<{ humanId: string; start_ts: number; stop_ts: number }>,
  ) {}

  static async load(db: Kysely<DB>): Promise<RecordIds> {
    const repo = new RecordWindowsRepository(db);
    return new RecordIds(await repo.listWindows('cruise'), await repo.listWindows('lowering'));
  }

  private static first(
    list: Array<{ humanId: string; start_ts: number; stop_ts: number }>,
    ts: number,
  ): string | undefined {
    for (const w of list) {
      if (w.start_ts > ts) return undefined; // sorted by start: no later window can hold ts
      if (ts <= w.stop_ts) return w.humanId;
    }
    return undefined;
  }

  /** The record windows of a kind, sorted by start. */
  windows(kind: 'cruise' | 'lowering'): ReadonlyArray<{ start_ts: number; stop_ts: number }> {
    return kind === 'cruise' ? this.cruises : this.lowerings;
  }

  /**
   * `for` as a function that keeps its last answer while ts stays between the same window edges
   * (an export asks for every event, in time order).
   */
  /** Where `for` may change its answer: every window's start and the millisecond after its stop, sorted. */
  edges(): number[] {
    return [...new Set([...this.cruises, ...this.lowerings].flatMap((w) => [w.start_ts, w.stop_ts + 1]))].sort(
      (a, b) => a - b,
    );
  }

  cursor(): (ts: number) => { cruise_id?: string; lowering_id?: string } {
    const edges = this.edges();
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    let answer: { cruise_id?: string; lowering_id?: string } = {};
    return (ts) => {
      if (ts >= lo && ts < hi) return answer;
      answer = this.for(ts);
      let first = 0; // the first edge above ts
      for (let end = edges.length; first < end;) {
        const mid = (first + end) >>> 1;
        if (edges[mid]! <= ts) first = mid + 1;
        else end = mid;
      }
      lo = first > 0 ? edges[first - 1]! : Number.NEGATIVE_INFINITY;
      hi = first < edges.length ? edges[first]! : Number.POSITIVE_INFINITY;
      return answer;
    };
  }

  for(ts: number): { cruise_id?: string; lowering_id?: string } {
    const cruise = RecordIds.first(this.cruises, ts);
    const lowering = RecordIds.first(this.lowerings, ts);
    return {
      ...(cruise !== undefined ? { cruise_id: cruise } : {}),
      ...(lowering !== undefined ? { lowering_id: lowering } : {}),
    };
  }
}
