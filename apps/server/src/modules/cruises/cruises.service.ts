import { cruiseManagerLockedMetaKeys, cruisesToCsv, type Cruise, type PermissionsChange } from '@bathylog/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import { AccessListsRepository } from '../access/access.repository.js';
import { shipRestriction } from '../access/access.repository.js';
import { viewerOf } from '../access/access.rules.js';
import { LoweringsRepository } from '../lowerings/lowerings.repository.js';
import { toWireLowering } from '../lowerings/lowerings.wire.js';
import { RecordsService, type RecordRead } from '../records/records.service.js';
import type { CruiseRecord } from './cruises.repository.js';
import { toWireCruise } from './cruises.wire.js';
import { listDiff, noRecords } from '../records/record-rules.js';

export type CruiseRead = RecordRead<Cruise>;

/**
 * Cruises: the shared record rules (records.service.ts) plus bylowering and the cascades to the
 * lowerings inside a cruise (hidden flag, access lists, realtime pushes of docs/wire.md#channels).
 */
export class CruisesService extends RecordsService<'cruise', Cruise> {
  constructor(ctx: AppContext) {
    super(ctx, {
      kind: 'cruise',
      toWire: toWireCruise,
      toCsv: cruisesToCsv,
      channels: { created: 'newCruises', updated: 'updateCruises' },
      lockedMetaKeys: cruiseManagerLockedMetaKeys,
      metaFilterKeys: ['cruise_vessel', 'cruise_pi'],
      missingOnEdit: 'NOT_FOUND',
    });
  }

  async byLowering(caller: AuthContext, loweringId: string, format?: 'json' | 'csv'): Promise<CruiseRead> {
    const lowering = await this.lowerings().findById(loweringId);
    if (!lowering) throw new AppError('BAD_REQUEST', `No lowering record found for id: ${loweringId}`);
    // The visitor asks only about lowerings it is shown.
    if (caller.archive?.state('lowering', lowering.id) === 'closed') throw noRecords();
    const fields = { hidden: lowering.lowering_hidden, accessList: lowering.lowering_access_list };
    const restricted = await shipRestriction(this.ctx.database.db, 'lowering', lowering.id, fields);
    if (restricted.shipRestricted && !caller.isAdmin) throw noRecords();
    const cruise = await this.repo().findContaining(
      lowering.start_ts,
      lowering.stop_ts,
      viewerOf(caller),
      this.accessControl,
    );
    if (!cruise) throw noRecords();
    return this.read(caller, [cruise], format, true);
  }

  private lowerings(db: Kysely<DB> | Transaction<DB> = this.ctx.database.db) {
    return new LoweringsRepository(db, this.ctx.database.dialect);
  }

  /** Hiding a cruise or changing its access list carries down to its lowerings (Sealog meant to and did not). */
  protected override async cascadeUpdate(
    trx: Transaction<DB>,
    before: CruiseRecord,
    after: CruiseRecord,
    sent: { hidden: boolean | undefined; accessList: string[] | undefined },
  ): Promise<void> {
    const inside = await this.lowerings(trx).listWithin(after.start_ts, after.stop_ts);
    const insideIds = inside.map((l) => l.id);
    if (sent.hidden !== undefined && sent.hidden !== before.cruise_hidden && insideIds.length > 0) {
      await trx
        .updateTable('lowerings')
        .set({ lowering_hidden: sent.hidden ? 1 : 0 })
        .where('id', 'in', insideIds)
        .execute();
    }
    if (sent.accessList !== undefined) {
      const diff = listDiff(before.cruise_access_list, sent.accessList);
      if (diff.add.length + diff.remove.length > 0)
        await new AccessListsRepository(trx).changeLists('lowering', insideIds, diff);
    }
  }

  /** A permissions change carries to every lowering inside the cruise. */
  protected override async cascadePermissions(
    trx: Transaction<DB>,
    access: AccessListsRepository,
    cruise: CruiseRecord,
    change: PermissionsChange,
  ): Promise<void> {
    const inside = await this.lowerings(trx).listWithin(cruise.start_ts, cruise.stop_ts);
    await access.changeLists(
      'lowering',
      inside.map((l) => l.id),
      change,
    );
  }

  protected override async afterPermissions(cruise: CruiseRecord): Promise<void> {
    await this.publishRelated(cruise);
  }

  /** updateLowerings for every lowering inside the cruise (the cross-pushes of docs/wire.md#channels). */
  protected override async publishRelated(cruise: CruiseRecord): Promise<void> {
    const inside = await this.lowerings().listWithin(cruise.start_ts, cruise.stop_ts);
    for (const l of inside) this.ctx.bus.publish('updateLowerings', toWireLowering(l, this.wireOptions));
  }
}
