import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';
import { jsonListContains, listedForCondition, originOf, type RecordKind } from '../access/access.repository.js';
import type { Viewer } from '../access/access.rules.js';

/**
 * Cruises and lowerings share one table shape whose columns carry the kind as a prefix
 * (`cruise_tags` / `lowering_tags`), so one repository serves both, parameterised by the kind.
 */

/** A cruise or lowering row with its JSON and flag columns decoded; times are epoch ms. */
export type RecordOf<K extends RecordKind> = { id: string; start_ts: number; stop_ts: number } & Record<
  `${K}_id` | `${K}_location`,
  string
> &
  Record<`${K}_tags` | `${K}_access_list`, string[]> &
  Record<`${K}_hidden`, boolean> &
  Record<`${K}_additional_meta`, Record<string, unknown>> &
  /** The archive setting (docs/public-archive.md): a lowering's null public inherits its cruise's. */
  Record<`${K}_public`, boolean | null> &
  Record<`${K}_embargo_until`, number | null>;

/** How a record goes on the wire: access lists with access control, archive fields with the archive on. */
export interface RecordWireOptions {
  useAccessControl: boolean;
  publicArchive?: boolean;
  files?: string[];
}

export type PatchOf<K extends RecordKind> = Partial<Omit<RecordOf<K>, 'id'>>;

export interface RecordListFilter {
  /** Exact human id (`cruise_id` / `lowering_id`); when given the other filters (but visibility and `within`) are ignored, as in Sealog. */
  recordId?: string;
  location?: string;
  /** Text keys of the free-form meta object that must equal these values (e.g. `cruise_vessel`). */
  meta?: Record<string, string>;
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

/** The table and prefixed column names of one kind. */
function columnsOf(kind: RecordKind) {
  return {
    table: `${kind}s` as string,
    id: `${kind}_id` as string,
    location: `${kind}_location` as string,
    tags: `${kind}_tags` as const,
    hidden: `${kind}_hidden` as string,
    accessList: `${kind}_access_list` as string,
    meta: `${kind}_additional_meta` as string,
    isPublic: `${kind}_public` as string,
    embargo: `${kind}_embargo_until` as string,
  };
}

/** The two tables seen through their shared shape; column names come from `columnsOf`. */
type RecordRow = Record<string, unknown>;
type RecordsDB = Record<string, RecordRow>;

export class RecordsRepository<K extends RecordKind> {
  private readonly db: Kysely<RecordsDB>;
  private readonly col: ReturnType<typeof columnsOf>;

  constructor(
    readonly kind: K,
    db: Kysely<DB> | Transaction<DB>,
    private readonly dialect: Dialect,
  ) {
    this.db = db as unknown as Kysely<RecordsDB>;
    this.col = columnsOf(kind);
  }

  private fromRow(row: RecordRow): RecordOf<K> {
    const c = this.col;
    return {
      id: row.id,
      [c.id]: row[c.id],
      start_ts: Number(row.start_ts),
      stop_ts: Number(row.stop_ts),
      [c.location]: row[c.location],
      [c.tags]: parseJson<string[]>(row[c.tags] as string, []),
      [c.hidden]: !!row[c.hidden],
      [c.accessList]: parseJson<string[]>(row[c.accessList] as string, []),
      [c.meta]: parseJson<Record<string, unknown>>(row[c.meta] as string, {}),
      [c.isPublic]: row[c.isPublic] === null || row[c.isPublic] === undefined ? null : !!row[c.isPublic],
      [c.embargo]: row[c.embargo] === null || row[c.embargo] === undefined ? null : Number(row[c.embargo]),
    } as RecordOf<K>;
  }

  private toRow(patch: PatchOf<K>): RecordRow {
    const c = this.col;
    const p = patch as Record<string, unknown>;
    const row: RecordRow = {};
    for (const key of [c.id, 'start_ts', 'stop_ts', c.location]) if (p[key] !== undefined) row[key] = p[key];
    for (const key of [c.tags, c.accessList, c.meta]) if (p[key] !== undefined) row[key] = JSON.stringify(p[key]);
    if (p[c.hidden] !== undefined) row[c.hidden] = p[c.hidden] ? 1 : 0;
    if (p[c.isPublic] !== undefined) row[c.isPublic] = p[c.isPublic] === null ? null : p[c.isPublic] ? 1 : 0;
    if (p[c.embargo] !== undefined) row[c.embargo] = p[c.embargo];
    return row;
  }

  /** A text field of the free-form meta object; the one dialect-specific expression of this file. */
  private metaText(key: string): RawBuilder<string | null> {
    const column = sql.ref(this.col.meta);
    return this.dialect === 'postgres'
      ? sql<string | null>`(${column}::jsonb ->> ${sql.lit(key)})`
      : sql<string | null>`json_extract(${column}, ${sql.lit(`$.${key}`)})`;
  }

  private visibleTo(viewer: Viewer | undefined, useAccessControl: boolean) {
    return viewer && listedForCondition(this.dialect, this.kind, viewer, useAccessControl);
  }

  async findById(id: string): Promise<RecordOf<K> | undefined> {
    const row = await this.db.selectFrom(this.col.table).selectAll().where('id', '=', id).executeTakeFirst();
    return row && this.fromRow(row);
  }

  async list(filter: RecordListFilter): Promise<RecordOf<K>[]> {
    const c = this.col;
    let q = this.db.selectFrom(c.table).selectAll();
    if (filter.recordId !== undefined) {
      q = q.where(c.id, '=', filter.recordId);
    } else {
      if (filter.location !== undefined) q = q.where(c.location, '=', filter.location);
      for (const [key, value] of Object.entries(filter.meta ?? {})) q = q.where(this.metaText(key), '=', value);
      if (filter.tags && filter.tags.length > 0) {
        const tags = filter.tags;
        q = q.where((eb) => eb.or(tags.map((t) => jsonListContains(this.dialect, c.tags, t))));
      }
      if (filter.overlap) q = q.where('start_ts', '<', filter.overlap.stop).where('stop_ts', '>', filter.overlap.start);
    }
    if (filter.within) q = q.where('start_ts', '>=', filter.within.start).where('stop_ts', '<=', filter.within.stop);
    if (filter.hidden !== undefined) q = q.where(c.hidden, '=', filter.hidden ? 1 : 0);
    const visible = this.visibleTo(filter.viewer, !!filter.useAccessControl);
    if (visible) q = q.where(visible);
    q = q.orderBy('start_ts', filter.order).orderBy('id', filter.order);
    if (filter.limit !== undefined) q = q.limit(filter.limit);
    if (filter.offset)
      q = q.offset(filter.offset).$if(filter.limit === undefined, (qb) => qb.limit(Number.MAX_SAFE_INTEGER));
    return (await q.execute()).map((row) => this.fromRow(row));
  }

  /** The first record (latest start) whose span contains [start, stop], visible to the viewer. */
  async findContaining(
    start: number,
    stop: number,
    viewer?: Viewer,
    useAccessControl = false,
    origin?: string | null,
  ): Promise<RecordOf<K> | undefined> {
    let q = this.db.selectFrom(this.col.table).selectAll().where('start_ts', '<=', start).where('stop_ts', '>=', stop);
    const visible = this.visibleTo(viewer, useAccessControl);
    if (visible) q = q.where(visible);
    if (origin !== undefined) {
      const own = originOf(this.kind, sql.ref(`${this.col.table}.id`));
      q = q.where(origin === null ? sql<boolean>`${own} IS NULL` : sql<boolean>`${own} = ${origin}`);
    }
    const row = await q.orderBy('start_ts', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row && this.fromRow(row);
  }

  /** Every record whose span contains [start, stop] (the cruises a lowering belongs to), latest first. */
  async listContaining(start: number, stop: number): Promise<RecordOf<K>[]> {
    return this.listSpan('<=', start, '>=', stop);
  }

  /** Every record inside [start, stop] (the lowerings of a cruise), latest first. */
  async listWithin(start: number, stop: number): Promise<RecordOf<K>[]> {
    return this.listSpan('>=', start, '<=', stop);
  }

  private async listSpan(startOp: '<=' | '>=', start: number, stopOp: '<=' | '>=', stop: number) {
    const rows = await this.db
      .selectFrom(this.col.table)
      .selectAll()
      .where('start_ts', startOp, start)
      .where('stop_ts', stopOp, stop)
      .orderBy('start_ts', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => this.fromRow(row));
  }

  /** The time of an event (for byevent), or undefined when there is no such event. */
  async eventTime(eventId: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('events').select('ts').where('id', '=', eventId).executeTakeFirst();
    return row ? Number(row.ts) : undefined;
  }

  async insert(record: RecordOf<K>): Promise<void> {
    await this.db
      .insertInto(this.col.table)
      .values({ id: record.id, ...this.toRow(record) })
      .execute();
  }

  async update(id: string, patch: PatchOf<K>): Promise<void> {
    const row = this.toRow(patch);
    if (Object.keys(row).length === 0) return;
    await this.db.updateTable(this.col.table).set(row).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<number> {
    const result = await this.db.deleteFrom(this.col.table).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteAll(): Promise<number> {
    const result = await this.db.deleteFrom(this.col.table).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
