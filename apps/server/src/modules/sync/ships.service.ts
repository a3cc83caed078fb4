import {
  isOtherShipHost,
  newObjectId,
  shipFormMessages,
  shipStates,
  toIso,
  type CreateShip,
  type Ship,
  type ShipState,
  type UpdateShip,
} from '@bathylog/shared';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { SyncShipsTable } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { isRefusedShipUrl, refusedShipAddressMessage } from '../../lib/ship-address.js';
import type { AuthContext } from '../../plugins/auth.js';
import { internalChannels } from '../../realtime/internal-channels.js';
import { recordChange } from '../audit/audit.js';

export type ShipRow = Selectable<SyncShipsTable>;

/** Refused changes shown with a ship's status (the newest). */
const refusalsShown = 10;

export const keyNeededMessage = shipFormMessages.keyNeeded;

const originTypes = {
  cruise: 'cruises',
  lowering: 'lowerings',
  event: 'events',
  event_aux_data: 'aux_data',
  file: 'files',
} as const;

/** The ships a shore server follows (docs/ship-to-shore.md#the-shore), admins only. The key is never answered. */
export class ShipsService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  async rows(): Promise<ShipRow[]> {
    return this.db.selectFrom('sync_ships').selectAll().orderBy('name').execute();
  }

  async row(id: string): Promise<ShipRow> {
    const row = await this.db.selectFrom('sync_ships').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', `No ship found for id: ${id}`);
    return row;
  }

  async list(): Promise<Ship[]> {
    const rows = await this.rows();
    return Promise.all(rows.map((r) => this.toShip(r)));
  }

  async get(id: string): Promise<Ship> {
    return this.toShip(await this.row(id));
  }

  async toShip(r: ShipRow): Promise<Ship> {
    const queued = await this.db
      .selectFrom('sync_file_queue')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
      .where('ship_id', '=', r.id)
      .where('priority', '=', 1)
      .executeTakeFirst();
    const counts = await this.db
      .selectFrom('sync_origins')
      .select(['record_type', (eb) => eb.fn.countAll<number>().as('n')])
      .where('ship_id', '=', r.id)
      .groupBy('record_type')
      .execute();
    const records = { cruises: 0, lowerings: 0, events: 0, aux_data: 0, files: 0 };
    for (const c of counts) {
      const key = originTypes[c.record_type as keyof typeof originTypes];
      if (key) records[key] = Number(c.n);
    }
    const refusals = await this.db
      .selectFrom('sync_refusals')
      .select(['at', 'record_type', 'record_id', 'reason'])
      .where('ship_id', '=', r.id)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(refusalsShown)
      .execute();
    const state = (shipStates as readonly string[]).includes(r.state) ? (r.state as ShipState) : 'offline';
    return {
      id: r.id,
      name: r.name,
      url: r.url,
      enabled: r.enabled === 1,
      bandwidth_kbps: r.bandwidth_kbps === null ? null : Number(r.bandwidth_kbps),
      state: r.enabled === 1 ? state : 'paused',
      last_contact: r.last_contact === null ? null : toIso(Number(r.last_contact)),
      last_error: r.last_error,
      cursor: r.cursor,
      behind_records: Number(r.behind_records),
      behind_bytes: Number(r.behind_bytes),
      queued_files: Number(queued?.n ?? 0),
      queued_bytes: Number(queued?.bytes ?? 0),
      records,
      refused_changes: Number(r.refused_count ?? 0),
      refusals: refusals.map((f) => ({
        at: toIso(Number(f.at)),
        record_type: f.record_type,
        record_id: f.record_id,
        reason: f.reason,
      })),
    };
  }

  /** A ship's address on loopback or link-local is refused unless the configuration allows it. */
  private checkUrl(url: string): void {
    if (!this.ctx.config.sync.allowPrivateHosts && isRefusedShipUrl(url)) {
      throw new AppError('BAD_REQUEST', refusedShipAddressMessage);
    }
  }

  /** The ship's row changed: its follower reads it again, and its entry is published. */
  private async changed(id: string): Promise<void> {
    this.ctx.bus.publish(internalChannels.shipsChanged, { shipId: id });
    await this.announce(id);
  }

  /** Publishes the ship's entry (its follower's state moved). */
  async announce(id: string): Promise<void> {
    const row = await this.db.selectFrom('sync_ships').selectAll().where('id', '=', id).executeTakeFirst();
    if (row) this.ctx.bus.publish('ships', await this.toShip(row));
  }

  async create(caller: AuthContext, body: CreateShip): Promise<Ship> {
    this.checkUrl(body.url);
    const row: ShipRow = {
      id: newObjectId(),
      name: body.name,
      url: body.url.replace(/\/+$/, ''),
      device_key: body.key,
      enabled: 1,
      bandwidth_kbps: body.bandwidth_kbps === undefined ? this.ctx.config.sync.bandwidthKbps : body.bandwidth_kbps,
      cursor: null,
      state: 'catching_up',
      last_contact: null,
      last_error: null,
      head: null,
      behind_records: 0,
      behind_bytes: 0,
      created_at: this.ctx.now(),
      refused_count: 0,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('sync_ships').values(row).execute();
      await recordChange(trx, caller, {
        action: 'create',
        record_type: 'ship',
        record_id: row.id,
        new_value: { name: row.name, url: row.url, bandwidth_kbps: row.bandwidth_kbps },
      });
    });
    await this.changed(row.id);
    return this.toShip(row);
  }

  async update(caller: AuthContext, id: string, body: UpdateShip): Promise<Ship> {
    const existing = await this.row(id);
    if (body.url !== undefined) {
      this.checkUrl(body.url);
      // The stored key goes only to the host it was given for: another host must be given it anew.
      if (body.key === undefined && isOtherShipHost(existing.url, body.url)) {
        throw new AppError('BAD_REQUEST', keyNeededMessage);
      }
    }
    const patch: Partial<ShipRow> = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.url !== undefined ? { url: body.url.replace(/\/+$/, '') } : {}),
      ...(body.key !== undefined ? { device_key: body.key } : {}),
      ...(body.bandwidth_kbps !== undefined ? { bandwidth_kbps: body.bandwidth_kbps } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled ? 1 : 0 } : {}),
    };
    // A new address or key is worth a try at once, whatever refused the old one.
    if (body.url !== undefined || body.key !== undefined || body.enabled === true) {
      patch.state = 'catching_up';
      patch.last_error = null;
    }
    if (Object.keys(patch).length > 0) {
      await this.db.transaction().execute(async (trx) => {
        await trx.updateTable('sync_ships').set(patch).where('id', '=', id).execute();
        const shown = (r: Partial<ShipRow>) => ({
          name: r.name,
          url: r.url,
          bandwidth_kbps: r.bandwidth_kbps,
          enabled: r.enabled,
          ...(r.device_key !== undefined ? { key: 'changed' } : {}),
        });
        await recordChange(trx, caller, {
          action: 'update',
          record_type: 'ship',
          record_id: id,
          old_value: shown(existing),
          new_value: shown({ ...existing, ...patch, ...(body.key !== undefined ? {} : { device_key: undefined }) }),
        });
      });
    }
    await this.changed(id);
    return this.get(id);
  }

  /**
   * Stops following. The records already copied stay read-only, still marked as the ship's under
   * its name (docs/ship-to-shore.md#read-only-on-shore): no other ship and nobody here changes them.
   */
  async remove(caller: AuthContext, id: string): Promise<void> {
    const existing = await this.row(id);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sync_ships').where('id', '=', id).execute();
      await trx.deleteFrom('sync_file_queue').where('ship_id', '=', id).execute();
      await trx.deleteFrom('sync_comment_queue').where('ship_id', '=', id).execute();
      await trx
        .insertInto('sync_former_ships')
        .values({ id, name: existing.name, removed_at: this.ctx.now() })
        .onConflict((oc) => oc.column('id').doUpdateSet({ name: existing.name }))
        .execute();
      await trx.deleteFrom('sync_refusals').where('ship_id', '=', id).execute();
      await recordChange(trx, caller, {
        action: 'delete',
        record_type: 'ship',
        record_id: id,
        old_value: { name: existing.name, url: existing.url },
      });
    });
    this.ctx.bus.publish(internalChannels.shipsChanged, { shipId: id });
  }
}
