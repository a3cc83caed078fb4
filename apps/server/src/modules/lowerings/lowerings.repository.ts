import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { LoweringsTable, DB } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';
import { jsonListContains, listedForCondition } from '../access/access.repository.js';
import type { Viewer } from '../access/access.rules.js';

/** A lowering (dive) row with its JSON and flag columns decoded; times are epoch ms. */
export interface LoweringRecord {
  id: string;
  lowering_id: string;
  start_ts: number;
  stop_ts: number;
  lowering_location: string;
  lowering_tags: string[];
  lowering_hidden: boolean;
  lowering_access_list: string[];
  lowering_additional_meta: Record<string, unknown>;
}

export type LoweringPatch = Partial<Omit<LoweringRecord, 'id'>>;

function fromRow(row: Selectable<LoweringsTable>): LoweringRecord {
  return {
    id: row.id,
    lowering_id: row.lowering_id,
    start_ts: Number(row.start_ts),
    stop_ts: Number(row.stop_ts),
    lowering_location: row.lowering_location,
    lowering_tags: parseJson<string[]>(row.lowering_tags, []),
    lowering_hidden: !!row.lowering_hidden,
    lowering_access_list: parseJson<string[]>(row.lowering_access_list, []),
    lowering_additional_meta: parseJson<Record<string, unknown>>(row.lowering_additional_meta, {}),
  };
}

function toRow(patch: LoweringPatch): Partial<LoweringsTable> {
  const row: Partial<LoweringsTable> = {};
  if (patch.lowering_id !== undefined) row.lowering_id = patch.lowering_id;
  if (patch.start_ts !== undefined) row.start_ts = patch.start_ts;
  if (patch.stop_ts !== undefined) row.stop_ts = patch.stop_ts;
  if (patch.lowering_location !== undefined) row.lowering_location = patch.lowering_location;
  if (patch.lowering_tags !== undefined) row.lowering_tags = JSON.stringify(patch.lowering_tags);
  if (patch.lowering_hidden !== undefined) row.lowering_hidden = patch.lowering_hidden ? 1 : 0;
  if (patch.lowering_access_list !== undefined) row.lowering_access_list = JSON.stringify(patch.lowering_access_list);
  if (patch.lowering_additional_meta !== undefined)
    row.lowering_additional_meta = JSON.stringify(patch.lowering_additional_meta);
  return row;
}

export interface LoweringListFilter {
  /** Exact lowering_id; when given the other filters (but visibility) are ignored, as in Sealog. */
  loweringId?: string;
  location?: string;
  /** Any of these tags. */
  tags?: string[];
  /** Overlap with [start, stop]: start_ts < stop and stop_ts > start. */
  overlap?: { start: number; stop: number };
  /** Inside [start, stop]: start_ts >= start and stop_ts <= stop (lowerings of a cruise). */
  within?: { start: number; stop: number };
  hidden?: boolean;
  /** Non-admin visibility (hidden and access lists). */
  viewer?: Viewer;
  useAccessControl?: boolean;
  order: 'asc' | 'desc';
  offset?: number;
  limit?: number;
}

export class LoweringsRepository {
  constructor(
    private readonly db: Kysely<DB> | Transaction<DB>,
    private readonly dialect: Dialect,
  ) {}

  async findById(id: string): Promise<LoweringRecord | undefined> {
    const row = await this.db.selectFrom('lowerings').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }

  async list(filter: LoweringListFilter): Promise<LoweringRecord[]> {
    let q = this.db.selectFrom('lowerings').selectAll();
    if (filter.loweringId !== undefined) {
      q = q.where('lowering_id', '=', filter.loweringId);
    } else {
      if (filter.location !== undefined) q = q.where('lowering_location', '=', filter.location);
      if (filter.tags && filter.tags.length > 0) {
        const tags = filter.tags;
        q = q.where((eb) => eb.or(tags.map((t) => jsonListContains(this.dialect, 'lowering_tags', t))));
      }
      if (filter.overlap) q = q.where('start_ts', '<', filter.overlap.stop).where('stop_ts', '>', filter.overlap.start);
    }
    if (filter.within) q = q.where('start_ts', '>=', filter.within.start).where('stop_ts', '<=', filter.within.stop);
    if (filter.hidden !== undefined) q = q.where('lowering_hidden', '=', filter.hidden ? 1 : 0);
    const visible =
      filter.viewer && listedForCondition(this.dialect, 'lowering', filter.viewer, !!filter.useAccessControl);
    if (visible) q = q.where(visible);
    q = q.orderBy('start_ts', filter.order).orderBy('id', filter.order);
    if (filter.limit !== undefined) q = q.limit(filter.limit);
    if (filter.offset)
      q = q.offset(filter.offset).$if(filter.limit === undefined, (qb) => qb.limit(Number.MAX_SAFE_INTEGER));
    return (await q.execute()).map(fromRow);
  }

  /** The first lowering (latest start) whose span contains `ts`, visible to the viewer. */
  async findAt(ts: number, viewer?: Viewer, useAccessControl = false): Promise<LoweringRecord | undefined> {
    let q = this.db.selectFrom('lowerings').selectAll().where('start_ts', '<=', ts).where('stop_ts', '>=', ts);
    const visible = viewer && listedForCondition(this.dialect, 'lowering', viewer, useAccessControl);
    if (visible) q = q.where(visible);
    const row = await q.orderBy('start_ts', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row && fromRow(row);
  }

  /** Every lowering inside [start, stop] (the lowerings of a cruise). */
  async listWithin(start: number, stop: number): Promise<LoweringRecord[]> {
    const rows = await this.db
      .selectFrom('lowerings')
      .selectAll()
      .where('start_ts', '>=', start)
      .where('stop_ts', '<=', stop)
      .orderBy('start_ts', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(fromRow);
  }

  /** The time of an event (for byevent), or undefined when there is no such event. */
  async eventTime(eventId: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('events').select('ts').where('id', '=', eventId).executeTakeFirst();
    return row ? Number(row.ts) : undefined;
  }

  async insert(lowering: LoweringRecord): Promise<void> {
    await this.db
      .insertInto('lowerings')
      .values({ id: lowering.id, ...toRow(lowering) } as LoweringsTable)
      .execute();
  }

  async update(id: string, patch: LoweringPatch): Promise<void> {
    const row = toRow(patch);
    if (Object.keys(row).length === 0) return;
    await this.db.updateTable('lowerings').set(row).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<number> {
    const result = await this.db.deleteFrom('lowerings').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteAll(): Promise<number> {
    const result = await this.db.deleteFrom('lowerings').executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
