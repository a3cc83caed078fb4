import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { CruisesTable, DB } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';
import { jsonListContains, listedForCondition } from '../access/access.repository.js';
import type { Viewer } from '../access/access.rules.js';

/** A cruise row with its JSON and flag columns decoded; times are epoch ms. */
export interface CruiseRecord {
  id: string;
  cruise_id: string;
  start_ts: number;
  stop_ts: number;
  cruise_location: string;
  cruise_tags: string[];
  cruise_hidden: boolean;
  cruise_access_list: string[];
  cruise_additional_meta: Record<string, unknown>;
}

export type CruisePatch = Partial<Omit<CruiseRecord, 'id'>>;

function fromRow(row: Selectable<CruisesTable>): CruiseRecord {
  return {
    id: row.id,
    cruise_id: row.cruise_id,
    start_ts: Number(row.start_ts),
    stop_ts: Number(row.stop_ts),
    cruise_location: row.cruise_location,
    cruise_tags: parseJson<string[]>(row.cruise_tags, []),
    cruise_hidden: !!row.cruise_hidden,
    cruise_access_list: parseJson<string[]>(row.cruise_access_list, []),
    cruise_additional_meta: parseJson<Record<string, unknown>>(row.cruise_additional_meta, {}),
  };
}

function toRow(patch: CruisePatch): Partial<CruisesTable> {
  const row: Partial<CruisesTable> = {};
  if (patch.cruise_id !== undefined) row.cruise_id = patch.cruise_id;
  if (patch.start_ts !== undefined) row.start_ts = patch.start_ts;
  if (patch.stop_ts !== undefined) row.stop_ts = patch.stop_ts;
  if (patch.cruise_location !== undefined) row.cruise_location = patch.cruise_location;
  if (patch.cruise_tags !== undefined) row.cruise_tags = JSON.stringify(patch.cruise_tags);
  if (patch.cruise_hidden !== undefined) row.cruise_hidden = patch.cruise_hidden ? 1 : 0;
  if (patch.cruise_access_list !== undefined) row.cruise_access_list = JSON.stringify(patch.cruise_access_list);
  if (patch.cruise_additional_meta !== undefined)
    row.cruise_additional_meta = JSON.stringify(patch.cruise_additional_meta);
  return row;
}

/** A text field of the free-form meta object; the one dialect-specific expression of this file. */
function metaText(dialect: Dialect, key: 'cruise_vessel' | 'cruise_pi'): RawBuilder<string | null> {
  return dialect === 'postgres'
    ? sql<string | null>`(cruise_additional_meta::jsonb ->> ${sql.lit(key)})`
    : sql<string | null>`json_extract(cruise_additional_meta, ${sql.lit(`$.${key}`)})`;
}

export interface CruiseListFilter {
  /** Exact cruise_id; when given the other filters (but visibility) are ignored, as in Sealog. */
  cruiseId?: string;
  location?: string;
  vessel?: string;
  pi?: string;
  /** Any of these tags. */
  tags?: string[];
  /** Overlap with [start, stop]: start_ts < stop and stop_ts > start. */
  overlap?: { start: number; stop: number };
  hidden?: boolean;
  /** Non-admin visibility (hidden and access lists). */
  viewer?: Viewer;
  useAccessControl?: boolean;
  order: 'asc' | 'desc';
  offset?: number;
  limit?: number;
}

export class CruisesRepository {
  constructor(
    private readonly db: Kysely<DB> | Transaction<DB>,
    private readonly dialect: Dialect,
  ) {}

  async findById(id: string): Promise<CruiseRecord | undefined> {
    const row = await this.db.selectFrom('cruises').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }

  async list(filter: CruiseListFilter): Promise<CruiseRecord[]> {
    let q = this.db.selectFrom('cruises').selectAll();
    if (filter.cruiseId !== undefined) {
      q = q.where('cruise_id', '=', filter.cruiseId);
    } else {
      if (filter.location !== undefined) q = q.where('cruise_location', '=', filter.location);
      if (filter.vessel !== undefined) q = q.where(metaText(this.dialect, 'cruise_vessel'), '=', filter.vessel);
      if (filter.pi !== undefined) q = q.where(metaText(this.dialect, 'cruise_pi'), '=', filter.pi);
      if (filter.tags && filter.tags.length > 0) {
        const tags = filter.tags;
        q = q.where((eb) => eb.or(tags.map((t) => jsonListContains(this.dialect, 'cruise_tags', t))));
      }
      if (filter.overlap) q = q.where('start_ts', '<', filter.overlap.stop).where('stop_ts', '>', filter.overlap.start);
    }
    if (filter.hidden !== undefined) q = q.where('cruise_hidden', '=', filter.hidden ? 1 : 0);
    const visible =
      filter.viewer && listedForCondition(this.dialect, 'cruise', filter.viewer, !!filter.useAccessControl);
    if (visible) q = q.where(visible);
    q = q.orderBy('start_ts', filter.order).orderBy('id', filter.order);
    if (filter.limit !== undefined) q = q.limit(filter.limit);
    if (filter.offset)
      q = q.offset(filter.offset).$if(filter.limit === undefined, (qb) => qb.limit(Number.MAX_SAFE_INTEGER));
    return (await q.execute()).map(fromRow);
  }

  /** The first cruise (latest start) whose span contains [start, stop], visible to the viewer. */
  async findContaining(
    start: number,
    stop: number,
    viewer?: Viewer,
    useAccessControl = false,
  ): Promise<CruiseRecord | undefined> {
    let q = this.db.selectFrom('cruises').selectAll().where('start_ts', '<=', start).where('stop_ts', '>=', stop);
    const visible = viewer && listedForCondition(this.dialect, 'cruise', viewer, useAccessControl);
    if (visible) q = q.where(visible);
    const row = await q.orderBy('start_ts', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row && fromRow(row);
  }

  /** Every cruise whose span contains [start, stop] (the cruises a lowering belongs to). */
  async listContaining(start: number, stop: number): Promise<CruiseRecord[]> {
    const rows = await this.db
      .selectFrom('cruises')
      .selectAll()
      .where('start_ts', '<=', start)
      .where('stop_ts', '>=', stop)
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

  async insert(cruise: CruiseRecord): Promise<void> {
    await this.db
      .insertInto('cruises')
      .values({ id: cruise.id, ...toRow(cruise) } as CruisesTable)
      .execute();
  }

  async update(id: string, patch: CruisePatch): Promise<void> {
    const row = toRow(patch);
    if (Object.keys(row).length === 0) return;
    await this.db.updateTable('cruises').set(row).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<number> {
    const result = await this.db.deleteFrom('cruises').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteAll(): Promise<number> {
    const result = await this.db.deleteFrom('cruises').executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
