import {
  cruiseManagerLockedMetaKeys,
  cruisesToCsv,
  newObjectId,
  recordMessages,
  type CreateCruise,
  type Cruise,
  type CruiseListQuery,
  type PermissionsChange,
  type UpdateCruise,
} from '@bathylog/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import { AccessListsRepository } from '../access/access.repository.js';
import { canOpenRecord, viewerOf } from '../access/access.rules.js';
import { RecordFilesService } from '../files/files.service.js';
import { LoweringsRepository } from '../lowerings/lowerings.repository.js';
import { toWireLowering } from '../lowerings/lowerings.wire.js';
import { CruisesRepository, type CruisePatch, type CruiseRecord } from './cruises.repository.js';
import { toWireCruise } from './cruises.wire.js';
import {
  assertQueryWindow,
  assertTimeOrder,
  changedFields,
  listDiff,
  noRecords,
  notFoundFor,
  overlapWindow,
  sameList,
} from './record-rules.js';

/** The fields only an admin sets; a cruise_manager edits the rest of an existing cruise. */
const lockedFields = ['cruise_id', 'start_ts', 'stop_ts'] as const;

export type CruiseRead = { kind: 'json'; body: Cruise | Cruise[] } | { kind: 'csv'; body: string };

/**
 * Cruises: reads with the hidden and access-list rules, writes with the role rules of seed 001 §6,
 * cascades to the lowerings inside a cruise, and the realtime pushes of reference §7.6.
 */
export class CruisesService {
  private readonly files: RecordFilesService;

  constructor(private readonly ctx: AppContext) {
    this.files = new RecordFilesService(ctx);
  }

  private repo(db: Kysely<DB> | Transaction<DB> = this.ctx.database.db) {
    return new CruisesRepository(db, this.ctx.database.dialect);
  }

  private get accessControl(): boolean {
    return this.ctx.config.useAccessControl;
  }

  private async withFiles(cruises: CruiseRecord[]): Promise<Cruise[]> {
    return Promise.all(
      cruises.map(async (c) =>
        toWireCruise(c, { useAccessControl: this.accessControl, files: await this.files.list('cruise', c.id) }),
      ),
    );
  }

  private async read(
    cruises: CruiseRecord[],
    format: 'json' | 'csv' | undefined,
    single: boolean,
  ): Promise<CruiseRead> {
    const wire = await this.withFiles(cruises);
    if (format === 'csv') return { kind: 'csv', body: cruisesToCsv(wire) };
    return { kind: 'json', body: single ? wire[0]! : wire };
  }

  async list(caller: AuthContext, query: CruiseListQuery): Promise<CruiseRead> {
    if (query.hidden === true && !caller.isAdmin) {
      throw new AppError('UNAUTHORIZED', 'User not authorized to retrieve hidden cruises');
    }
    assertQueryWindow(query);
    const overlap = overlapWindow(query);
    const cruises = await this.repo().list({
      ...(query.cruise_id !== undefined ? { cruiseId: query.cruise_id } : {}),
      ...(query.cruise_location !== undefined ? { location: query.cruise_location } : {}),
      ...(query.cruise_vessel !== undefined ? { vessel: query.cruise_vessel } : {}),
      ...(query.cruise_pi !== undefined ? { pi: query.cruise_pi } : {}),
      ...(query.cruise_tags !== undefined ? { tags: query.cruise_tags } : {}),
      ...(overlap ? { overlap } : {}),
      ...(query.hidden !== undefined ? { hidden: query.hidden } : {}),
      viewer: viewerOf(caller),
      useAccessControl: this.accessControl,
      order: query.sort === 'oldest' ? 'asc' : 'desc',
      ...(query.offset !== undefined ? { offset: query.offset } : {}),
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
    });
    if (cruises.length === 0) throw noRecords();
    return this.read(cruises, query.format, false);
  }

  /** A cruise the caller may open, or the Sealog 404/401. */
  private async openable(caller: AuthContext, id: string, action: 'retrieve' | 'edit'): Promise<CruiseRecord> {
    const cruise = await this.repo().findById(id);
    if (!cruise) throw notFoundFor(id);
    if (
      !canOpenRecord(
        viewerOf(caller),
        { hidden: cruise.cruise_hidden, accessList: cruise.cruise_access_list },
        this.accessControl,
      )
    ) {
      throw new AppError('UNAUTHORIZED', `User not authorized to ${action} this cruise`);
    }
    return cruise;
  }

  async get(caller: AuthContext, id: string, format?: 'json' | 'csv'): Promise<CruiseRead> {
    return this.read([await this.openable(caller, id, 'retrieve')], format, true);
  }

  /** Checks that the caller may open the cruise (used by the file routes). */
  async assertOpenable(caller: AuthContext, id: string, action: 'retrieve' | 'edit'): Promise<void> {
    await this.openable(caller, id, action);
  }

  async byLowering(caller: AuthContext, loweringId: string, format?: 'json' | 'csv'): Promise<CruiseRead> {
    const lowering = await new LoweringsRepository(this.ctx.database.db, this.ctx.database.dialect).findById(
      loweringId,
    );
    if (!lowering) throw new AppError('BAD_REQUEST', `No lowering record found for id: ${loweringId}`);
    const cruise = await this.repo().findContaining(
      lowering.start_ts,
      lowering.stop_ts,
      viewerOf(caller),
      this.accessControl,
    );
    if (!cruise) throw noRecords();
    return this.read([cruise], format, true);
  }

  async byEvent(caller: AuthContext, eventId: string, format?: 'json' | 'csv'): Promise<CruiseRead> {
    const ts = await this.repo().eventTime(eventId);
    if (ts === undefined) throw new AppError('BAD_REQUEST', `No event record found for id: ${eventId}`);
    const cruise = await this.repo().findContaining(ts, ts, viewerOf(caller), this.accessControl);
    if (!cruise) throw noRecords();
    return this.read([cruise], format, true);
  }

  /** Re-publishes the cruise on updateCruises (clients refresh). */
  async bump(caller: AuthContext, id: string): Promise<void> {
    const cruise = await this.openable(caller, id, 'retrieve');
    this.ctx.bus.publish('updateCruises', toWireCruise(cruise, { useAccessControl: this.accessControl }));
  }

  private async assertUsers(ids: readonly string[] | undefined, message: string): Promise<void> {
    if (!ids || ids.length === 0) return;
    const existing = await new AccessListsRepository(this.ctx.database.db).existingUserIds(ids);
    if (ids.some((id) => !existing.has(id))) throw new AppError('BAD_REQUEST', message);
  }

  private assertAccessListAllowed(list: unknown): void {
    if (list !== undefined && !this.accessControl)
      throw new AppError('BAD_REQUEST', '"cruise_access_list" is not allowed');
  }

  async create(_caller: AuthContext, body: CreateCruise): Promise<string> {
    this.assertAccessListAllowed(body.cruise_access_list);
    assertTimeOrder(body.start_ts, body.stop_ts);
    await this.assertUsers(body.cruise_access_list, 'cruise_access_list includes invalid user IDs');
    const meta: Record<string, unknown> = { ...body.cruise_additional_meta };
    // The file list is always read from the folder; a list sent on create (an import) is not stored.
    delete meta.cruise_files;
    const record: CruiseRecord = {
      id: body.id ?? newObjectId(),
      cruise_id: body.cruise_id,
      start_ts: body.start_ts,
      stop_ts: body.stop_ts,
      cruise_location: body.cruise_location,
      cruise_tags: body.cruise_tags,
      cruise_hidden: body.cruise_hidden ?? false,
      cruise_access_list: body.cruise_access_list ?? [],
      cruise_additional_meta: meta,
    };
    const repo = this.repo();
    if (body.id && (await repo.findById(body.id))) throw new AppError('BAD_REQUEST', recordMessages.duplicateId);
    try {
      await repo.insert(record);
    } catch (err) {
      if (await repo.findById(record.id)) throw new AppError('BAD_REQUEST', recordMessages.duplicateId);
      throw err;
    }
    await this.files
      .ensureFolder('cruise', record.id)
      .catch((err) => this.ctx.log.warn({ err }, 'creating the cruise folder failed'));
    this.ctx.bus.publish('newCruises', toWireCruise(record, { useAccessControl: this.accessControl }));
    await this.publishLoweringsOf(record);
    return record.id;
  }

  async update(caller: AuthContext, id: string, body: UpdateCruise): Promise<void> {
    this.assertAccessListAllowed(body.cruise_access_list);
    const cruise = await this.openable(caller, id, 'edit');
    const sentMeta = body.cruise_additional_meta as Record<string, unknown> | undefined;

    if (!caller.isAdmin) {
      const locked = [
        ...changedFields(body, cruise as unknown as Record<string, unknown>, lockedFields),
        ...(sentMeta ? changedFields(sentMeta, cruise.cruise_additional_meta, cruiseManagerLockedMetaKeys) : []),
      ];
      if (locked.length > 0) throw new AppError('FORBIDDEN', `Only admins can change ${locked.join(', ')}`);
      if (body.cruise_hidden !== undefined && body.cruise_hidden !== cruise.cruise_hidden) {
        throw new AppError('FORBIDDEN', 'Only admins can hide or show a cruise');
      }
      if (body.cruise_access_list !== undefined && !sameList(body.cruise_access_list, cruise.cruise_access_list)) {
        throw new AppError('FORBIDDEN', 'Only admins can change the cruise access list');
      }
    }
    assertTimeOrder(body.start_ts ?? cruise.start_ts, body.stop_ts ?? cruise.stop_ts);
    await this.assertUsers(body.cruise_access_list, 'cruise_access_list include invalid user IDs');
    const uploads = sentMeta?.cruise_files
      ? await this.files.checkUploads('cruise', id, sentMeta.cruise_files as string[])
      : [];

    const { cruise_additional_meta: _meta, ...fields } = body;
    const patch: CruisePatch = { ...fields };
    // The meta is replaced whole (Sealog), except when it carries nothing but new files: a script
    // attaching uploads must not wipe the description, vessel and the rest.
    if (sentMeta && Object.keys(sentMeta).some((k) => k !== 'cruise_files')) {
      const meta: Record<string, unknown> = { ...sentMeta };
      delete meta.cruise_files;
      // A cruise_manager's form leaves the locked keys out; they keep their stored values.
      if (!caller.isAdmin) {
        for (const key of cruiseManagerLockedMetaKeys) {
          if (meta[key] === undefined && cruise.cruise_additional_meta[key] !== undefined)
            meta[key] = cruise.cruise_additional_meta[key];
        }
      }
      patch.cruise_additional_meta = meta;
    }

    const updated = await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      await repo.update(id, patch);
      const after = (await repo.findById(id))!;
      // Hiding a cruise or changing its access list carries down to its lowerings (Sealog meant to
      // and did not, reference §12 item 11).
      const inside = await new LoweringsRepository(trx, this.ctx.database.dialect).listWithin(
        after.start_ts,
        after.stop_ts,
      );
      const insideIds = inside.map((l) => l.id);
      if (body.cruise_hidden !== undefined && body.cruise_hidden !== cruise.cruise_hidden && insideIds.length > 0) {
        await trx
          .updateTable('lowerings')
          .set({ lowering_hidden: body.cruise_hidden ? 1 : 0 })
          .where('id', 'in', insideIds)
          .execute();
      }
      if (body.cruise_access_list !== undefined) {
        const diff = listDiff(cruise.cruise_access_list, body.cruise_access_list);
        if (diff.add.length + diff.remove.length > 0)
          await new AccessListsRepository(trx).changeLists('lowering', insideIds, diff);
      }
      // Last, so a failed move rolls the record back.
      await this.files.commitUploads('cruise', id, uploads);
      return after;
    });
    this.ctx.bus.publish('updateCruises', toWireCruise(updated, { useAccessControl: this.accessControl }));
    await this.publishLoweringsOf(updated);
  }

  /** PATCH …/permissions: add and remove user ids on the cruise and every lowering inside it. */
  async setPermissions(_caller: AuthContext, id: string, change: PermissionsChange): Promise<void> {
    const cruise = await this.repo().findById(id);
    if (!cruise) throw notFoundFor(id);
    await this.assertUsers(
      [...(change.add ?? []), ...(change.remove ?? [])],
      'cruise_access_list include invalid user IDs',
    );
    const updated = await this.ctx.database.db.transaction().execute(async (trx) => {
      const access = new AccessListsRepository(trx);
      await access.changeLists('cruise', [id], change);
      const inside = await new LoweringsRepository(trx, this.ctx.database.dialect).listWithin(
        cruise.start_ts,
        cruise.stop_ts,
      );
      await access.changeLists(
        'lowering',
        inside.map((l) => l.id),
        change,
      );
      return (await this.repo(trx).findById(id))!;
    });
    this.ctx.bus.publish('updateCruises', toWireCruise(updated, { useAccessControl: this.accessControl }));
    await this.publishLoweringsOf(updated);
  }

  /** Deletes the cruise and its folder; its lowerings and events stay (membership is by time). */
  async remove(_caller: AuthContext, id: string): Promise<void> {
    const deleted = await this.repo().delete(id);
    if (deleted === 0) throw notFoundFor(id);
    await this.files.removeFolder('cruise', id);
  }

  async removeAll(_caller: AuthContext): Promise<void> {
    await this.repo().deleteAll();
    await this.files.removeAll('cruise');
  }

  /** updateLowerings for every lowering inside the cruise (reference §7.6 cross-pushes). */
  private async publishLoweringsOf(cruise: CruiseRecord): Promise<void> {
    const inside = await new LoweringsRepository(this.ctx.database.db, this.ctx.database.dialect).listWithin(
      cruise.start_ts,
      cruise.stop_ts,
    );
    for (const l of inside)
      this.ctx.bus.publish('updateLowerings', toWireLowering(l, { useAccessControl: this.accessControl }));
  }
}
