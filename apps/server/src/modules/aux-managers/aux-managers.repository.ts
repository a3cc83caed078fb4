import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AuxManagerHealthTable, AuxManagersTable, AuxManagerWritesTable, DB } from '../../db/schema.js';

export type AuxManagerRow = Selectable<AuxManagersTable>;
export type AuxHealthRow = Selectable<AuxManagerHealthTable>;
export type AuxWriteRow = Selectable<AuxManagerWritesTable>;

const nums = <T extends Record<string, unknown>>(row: T, keys: Array<keyof T>): T => {
  const out = { ...row };
  for (const k of keys)
    if (out[k] !== null && out[k] !== undefined) (out as Record<keyof T, unknown>)[k] = Number(out[k]);
  return out;
};

/** An event as the managers read it. */
export interface ManagedEvent {
  id: string;
  ts: number;
  event_value: string;
}

export class AuxManagersRepository {
  constructor(private readonly db: Kysely<DB> | Transaction<DB>) {}

  async list(): Promise<AuxManagerRow[]> {
    const rows = await this.db.selectFrom('aux_managers').selectAll().orderBy('name').execute();
    return rows.map((r) => nums(r, ['enabled', 'required', 'max_age_ms', 'timeout_ms', 'created_at', 'updated_at']));
  }

  async findById(id: string): Promise<AuxManagerRow | undefined> {
    const row = await this.db.selectFrom('aux_managers').selectAll().where('id', '=', id).executeTakeFirst();
    return row && nums(row, ['enabled', 'required', 'max_age_ms', 'timeout_ms', 'created_at', 'updated_at']);
  }

  async findByName(name: string): Promise<AuxManagerRow | undefined> {
    const row = await this.db.selectFrom('aux_managers').selectAll().where('name', '=', name).executeTakeFirst();
    return row && nums(row, ['enabled', 'required', 'max_age_ms', 'timeout_ms', 'created_at', 'updated_at']);
  }

  async insert(row: AuxManagerRow): Promise<void> {
    await this.db.insertInto('aux_managers').values(row).execute();
  }

  async update(id: string, patch: Partial<Omit<AuxManagerRow, 'id'>>): Promise<void> {
    await this.db.updateTable('aux_managers').set(patch).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('aux_managers').where('id', '=', id).execute();
    await this.db.deleteFrom('aux_manager_health').where('manager_id', '=', id).execute();
  }

  async listHealth(): Promise<AuxHealthRow[]> {
    const rows = await this.db.selectFrom('aux_manager_health').selectAll().execute();
    return rows.map((r) => nums(r, ['last_value_ts', 'last_success_at', 'last_error_at', 'updated_at']));
  }

  async saveHealth(row: AuxHealthRow): Promise<void> {
    const { manager_id: _id, ...rest } = row;
    await this.db
      .insertInto('aux_manager_health')
      .values(row)
      .onConflict((oc) => oc.column('manager_id').doUpdateSet(rest))
      .execute();
  }

  async findWrite(eventId: string, dataSource: string): Promise<AuxWriteRow | undefined> {
    const row = await this.db
      .selectFrom('aux_manager_writes')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('data_source', '=', dataSource)
      .executeTakeFirst();
    return row && nums(row, ['value_ts', 'written_at']);
  }

  async listWrites(eventId: string): Promise<AuxWriteRow[]> {
    const rows = await this.db
      .selectFrom('aux_manager_writes')
      .selectAll()
      .where('event_id', '=', eventId)
      .orderBy('data_source')
      .execute();
    return rows.map((r) => nums(r, ['value_ts', 'written_at']));
  }

  async saveWrite(row: AuxWriteRow): Promise<void> {
    const { event_id: _e, data_source: _d, ...rest } = row;
    await this.db
      .insertInto('aux_manager_writes')
      .values(row)
      .onConflict((oc) => oc.columns(['event_id', 'data_source']).doUpdateSet(rest))
      .execute();
  }

  async deleteWrite(eventId: string, dataSource: string): Promise<void> {
    await this.db
      .deleteFrom('aux_manager_writes')
      .where('event_id', '=', eventId)
      .where('data_source', '=', dataSource)
      .execute();
  }

  /** The stored data_array of an event's record of a source, and its id (whoever wrote it). */
  async auxRecord(eventId: string, dataSource: string): Promise<{ id: string; data_array: string } | undefined> {
    return this.db
      .selectFrom('event_aux_data')
      .select(['id', 'data_array'])
      .where('event_id', '=', eventId)
      .where('data_source', '=', dataSource)
      .executeTakeFirst();
  }

  async eventsByIds(ids: readonly string[]): Promise<ManagedEvent[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('events')
      .select(['id', 'ts', 'event_value'])
      .where('id', 'in', [...ids])
      .orderBy('ts')
      .execute();
    return rows.map((r) => ({ ...r, ts: Number(r.ts) }));
  }

  async eventById(id: string): Promise<ManagedEvent | undefined> {
    return (await this.eventsByIds([id]))[0];
  }

  /** Events in [lo, hi], oldest first, a page after `afterTs`/`afterId`. */
  async eventsInWindow(
    lo: number,
    hi: number,
    after: { ts: number; id: string } | null,
    limit: number,
  ): Promise<ManagedEvent[]> {
    let q = this.db
      .selectFrom('events')
      .select(['id', 'ts', 'event_value'])
      .where('ts', '>=', lo)
      .where('ts', '<=', hi);
    if (after)
      q = q.where((eb) => eb.or([eb('ts', '>', after.ts), eb.and([eb('ts', '=', after.ts), eb('id', '>', after.id)])]));
    const rows = await q.orderBy('ts').orderBy('id').limit(limit).execute();
    return rows.map((r) => ({ ...r, ts: Number(r.ts) }));
  }

  async recordIdByRef(kind: 'lowering' | 'cruise', ref: string): Promise<string | undefined> {
    if (kind === 'lowering') {
      const row = await this.db
        .selectFrom('lowerings')
        .select('id')
        .where((eb) => eb.or([eb('id', '=', ref), eb('lowering_id', '=', ref)]))
        .executeTakeFirst();
      return row?.id;
    }
    const row = await this.db
      .selectFrom('cruises')
      .select('id')
      .where((eb) => eb.or([eb('id', '=', ref), eb('cruise_id', '=', ref)]))
      .executeTakeFirst();
    return row?.id;
  }

  async loweringWindow(id: string): Promise<{ start_ts: number; stop_ts: number } | undefined> {
    const row = await this.db
      .selectFrom('lowerings')
      .select(['start_ts', 'stop_ts'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { start_ts: Number(row.start_ts), stop_ts: Number(row.stop_ts) };
  }

  async cruiseWindow(id: string): Promise<{ start_ts: number; stop_ts: number } | undefined> {
    const row = await this.db
      .selectFrom('cruises')
      .select(['start_ts', 'stop_ts'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { start_ts: Number(row.start_ts), stop_ts: Number(row.stop_ts) };
  }
}
