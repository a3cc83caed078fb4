import { loweringsToCsv, type Lowering, type LoweringListQuery } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import { shipRestriction } from '../access/access.repository.js';
import { canOpenRecord, viewerOf } from '../access/access.rules.js';
import { CruisesRepository } from '../cruises/cruises.repository.js';
import { toWireCruise } from '../cruises/cruises.wire.js';
import { noRecords } from '../records/record-rules.js';
import { RecordsService, type RecordRead } from '../records/records.service.js';
import type { LoweringRecord } from './lowerings.repository.js';
import { toWireLowering } from './lowerings.wire.js';

export type LoweringRead = RecordRead<Lowering>;

/**
 * Lowerings (dives): the shared record rules (records.service.ts; hidden ones are left out of every
 * non-admin list, bycruise included) plus bycruise and the pushes to the cruises that contain them.
 */
export class LoweringsService extends RecordsService<'lowering', Lowering> {
  constructor(ctx: AppContext) {
    super(ctx, {
      kind: 'lowering',
      toWire: toWireLowering,
      toCsv: loweringsToCsv,
      channels: { created: 'newLowerings', updated: 'updateLowerings' },
      lockedMetaKeys: [],
      metaFilterKeys: [],
      // PATCH answers 400 for a missing lowering, as Sealog does.
      missingOnEdit: 'BAD_REQUEST',
    });
  }

  /** Lowerings inside a cruise; startTS/stopTS narrow the cruise's bounds (outside values fall back to them). */
  async byCruise(caller: AuthContext, cruiseId: string, query: LoweringListQuery): Promise<LoweringRead> {
    const cruise = await this.cruises().findById(cruiseId);
    if (!cruise) throw new AppError('BAD_REQUEST', `No cruise record found for id: ${cruiseId}`);
    // The visitor may list the dives of an embargoed cruise too: they are stubs, or open where
    // a dive sets its own setting.
    const stub = caller.archive?.state('cruise', cruise.id) === 'stub';
    const fields = await shipRestriction(this.ctx.database.db, 'cruise', cruise.id, {
      hidden: cruise.cruise_hidden,
      accessList: cruise.cruise_access_list,
      ref: { kind: 'cruise' as const, id: cruise.id },
    });
    if (!stub && !canOpenRecord(viewerOf(caller), fields, this.accessControl)) {
      throw new AppError('UNAUTHORIZED', 'User not authorized to retrieve this cruise');
    }
    const inside = (v: number | undefined) => v !== undefined && v >= cruise.start_ts && v <= cruise.stop_ts;
    const within = {
      start: inside(query.startTS) ? query.startTS! : cruise.start_ts,
      stop: inside(query.stopTS) ? query.stopTS! : cruise.stop_ts,
    };
    const lowerings = await this.repo().list({ ...this.filter(caller, query), within });
    if (lowerings.length === 0) throw noRecords();
    return this.read(caller, lowerings, query.format, false);
  }

  private cruises() {
    return new CruisesRepository(this.ctx.database.db, this.ctx.database.dialect);
  }

  /** updateCruises for every cruise that contains the lowering (the cross-pushes of docs/wire.md#channels). */
  protected override async publishRelated(lowering: LoweringRecord): Promise<void> {
    const cruises = await this.cruises().listContaining(lowering.start_ts, lowering.stop_ts);
    for (const c of cruises) this.ctx.bus.publish('updateCruises', toWireCruise(c, this.wireOptions));
  }
}
