import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { DB, EventAuxDataTable } from '../../db/schema.js';
import { claimImages } from '../../db/sql/image-owners.js';
import { visibleEvents, type EventHiding } from '../access/event-access.js';

export type AuxRow = EventAuxDataTable;

/** A keyset chunk's conditions; `text` is the fulltext condition on `event_aux_data.id` (aux-data-search.ts). */
export interface ChunkOptions {
  eventId?: string | undefined;
  sources: readonly string[] | null;
  afterId?: string | undefined;
  offset: number;
  limit: number;
  text?: RawBuilder<boolean> | null;
  /** Leave out the records of events the caller may not see. */
  hidden?: EventHiding;
}

/** Aux-data records: one per (event_id, data_source), a unique index guarantees it. */
export class EventAuxDataRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  async findById(id: string): Promise<AuxRow | undefined> {
    return this.db.selectFrom('event_aux_data').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findByEventAndSource(eventId: string, dataSource: string): Promise<AuxRow | undefined> {
    return this.db
      .selectFrom('event_aux_data')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('data_source', '=', dataSource)
      .executeTakeFirst();
  }

  /** Aux records of the given events, optionally of the given sources only; per event in id order. */
  async listByEventIds(
    eventIds: readonly string[],
    sources: readonly string[] | null = null,
    text: RawBuilder<boolean> | null = null,
  ): Promise<AuxRow[]> {
    if (eventIds.length === 0 || (sources !== null && sources.length === 0)) return [];
    let q = this.db.selectFrom('event_aux_data').selectAll().where('event_id', 'in', eventIds);
    if (sources !== null) q = q.where('data_source', 'in', sources);
    if (text !== null) q = q.where(text);
    return q.orderBy('event_id').orderBy('id').execute();
  }

  /**
   * The records of one source belonging to the events inside [lo, hi], with their event's id and
   * time, in event order (ts, id): what a dive track is built from, in one indexed join.
   */
  async trackRecords(
    source: string,
    window: { lo: number; hi: number },
    hidden: EventHiding,
  ): Promise<Array<{ event_id: string; ts: number; data_array: string }>> {
    const visible = visibleEvents(sql.ref('events.id'), sql.ref('events.ts'), hidden) ?? sql<boolean>`1 = 1`;
    // CROSS JOIN keeps SQLite on the lowering's time range (events_ts_value_idx, already in order) with
    // one (event_id, data_source) lookup per event, instead of every record of the source in the
    // database; PostgreSQL plans it as an inner join.
    return this.db
      .selectFrom('events')
      .crossJoin('event_aux_data')
      .select(['event_aux_data.event_id', 'events.ts', 'event_aux_data.data_array'])
      .whereRef('event_aux_data.event_id', '=', 'events.id')
      .where('event_aux_data.data_source', '=', source)
      .where('events.ts', '>=', window.lo)
      .where('events.ts', '<=', window.hi)
      .where(visible)
      .orderBy('events.ts')
      .orderBy('events.id')
      .execute();
  }

  /** A keyset chunk of records in id order, by exact event id and/or sources (no event filter). */
  async chunk(opts: ChunkOptions): Promise<AuxRow[]> {
    if (opts.sources !== null && opts.sources.length === 0) return [];
    return this.chunkQuery(opts).execute();
  }

  private chunkQuery(opts: ChunkOptions) {
    let q = this.db.selectFrom('event_aux_data').selectAll();
    if (opts.eventId !== undefined) q = q.where('event_id', '=', opts.eventId);
    if (opts.sources !== null) q = q.where('data_source', 'in', opts.sources);
    if (opts.afterId !== undefined) q = q.where('id', '>', opts.afterId);
    if (opts.text) q = q.where(opts.text);
    const visible = opts.hidden && visibleEvents(sql.ref('hx.id'), sql.ref('hx.ts'), opts.hidden);
    if (visible) {
      q = q.where(
        sql<boolean>`EXISTS (SELECT 1 FROM events hx WHERE hx.id = ${sql.ref('event_aux_data.event_id')} AND ${visible})`,
      );
    }
    return q.orderBy('id').limit(opts.limit).offset(opts.offset);
  }

  /** The query plan of a chunk (tests check that a fulltext search uses its index). */
  async explainChunk(opts: ChunkOptions, dialect: 'sqlite' | 'postgres'): Promise<string> {
    const compiled = this.chunkQuery(opts).compile();
    const prefix = dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
    const result = await this.db.executeQuery<Record<string, unknown>>({
      ...compiled,
      sql: prefix + compiled.sql,
    });
    return result.rows.map((r) => String(r.detail ?? r['QUERY PLAN'] ?? JSON.stringify(r))).join('\n');
  }

  /** Stores a record; the images it names first are its event's from now on (db/sql/image-owners.ts). */
  async insert(row: AuxRow): Promise<void> {
    await this.db.insertInto('event_aux_data').values(row).execute();
    await claimImages(this.db, row.event_id, row.data_array);
  }

  async update(id: string, patch: Partial<Omit<AuxRow, 'id'>>): Promise<void> {
    if (Object.keys(patch).length === 0) return;
    await this.db.updateTable('event_aux_data').set(patch).where('id', '=', id).execute();
    if (patch.data_array === undefined) return;
    const eventId = patch.event_id ?? (await this.findById(id))?.event_id;
    if (eventId) await claimImages(this.db, eventId, patch.data_array);
  }

  async delete(id: string): Promise<number> {
    const result = await this.db.deleteFrom('event_aux_data').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteByEventIds(eventIds: readonly string[]): Promise<number> {
    if (eventIds.length === 0) return 0;
    const result = await this.db.deleteFrom('event_aux_data').where('event_id', 'in', eventIds).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
