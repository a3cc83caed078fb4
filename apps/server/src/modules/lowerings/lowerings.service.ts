import {
  loweringsToCsv,
  newObjectId,
  recordMessages,
  type CreateLowering,
  type Lowering,
  type LoweringListQuery,
  type PermissionsChange,
  type UpdateLowering,
} from '@bathylog/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import { AccessListsRepository } from '../access/access.repository.js';
import { canOpenRecord, viewerOf } from '../access/access.rules.js';
import { CruisesRepository } from '../cruises/cruises.repository.js';
import { toWireCruise } from '../cruises/cruises.wire.js';
import {
  assertQueryWindow,
  assertTimeOrder,
  changedFields,
  noRecords,
  notFoundFor,
  overlapWindow,
  sameList,
} from '../cruises/record-rules.js';
import { RecordFilesService } from '../files/files.service.js';
import {
  LoweringsRepository,
  type LoweringListFilter,
  type LoweringPatch,
  type LoweringRecord,
} from './lowerings.repository.js';
import { toWireLowering } from './lowerings.wire.js';

/** The fields only an admin sets; a cruise_manager edits the rest of an existing lowering. */
const lockedFields = ['lowering_id', 'start_ts', 'stop_ts'] as const;

export type LoweringRead = { kind: 'json'; body: Lowering | Lowering[] } | { kind: 'csv'; body: string };

/**
 * Lowerings (dives): reads with the hidden and access-list rules (hidden ones are left out of
 * every non-admin list, bycruise included), writes with the role rules of seed 001 §6, and the
 * realtime pushes of reference §7.6.
 */
export class LoweringsService {
  private readonly files: RecordFilesService;

  constructor(private readonly ctx: AppContext) {
    this.files = new RecordFilesService(ctx);
  }

  private repo(db: Kysely<DB> | Transaction<DB> = this.ctx.database.db) {
    return new LoweringsRepository(db, this.ctx.database.dialect);
  }

  private get accessControl(): boolean {
    return this.ctx.config.useAccessControl;
  }

  private async read(
    lowerings: LoweringRecord[],
    format: 'json' | 'csv' | undefined,
    single: boolean,
  ): Promise<LoweringRead> {
    const wire = await Promise.all(
      lowerings.map(async (l) =>
        toWireLowering(l, { useAccessControl: this.accessControl, files: await this.files.list('lowering', l.id) }),
      ),
    );
    if (format === 'csv') return { kind: 'csv', body: loweringsToCsv(wire) };
    return { kind: 'json', body: single ? wire[0]! : wire };
  }

  private filter(caller: AuthContext, query: LoweringListQuery): LoweringListFilter {
    if (query.hidden === true && !caller.isAdmin) {
      throw new AppError('UNAUTHORIZED', 'User not authorized to retrieve hidden lowerings');
    }
    assertQueryWindow(query);
    return {
      ...(query.lowering_id !== undefined ? { loweringId: query.lowering_id } : {}),
      ...(query.lowering_location !== undefined ? { location: query.lowering_location } : {}),
      ...(query.lowering_tags !== undefined ? { tags: query.lowering_tags } : {}),
      ...(query.hidden !== undefined ? { hidden: query.hidden } : {}),
      viewer: viewerOf(caller),
      useAccessControl: this.accessControl,
      order: query.sort === 'oldest' ? 'asc' : 'desc',
      ...(query.offset !== undefined ? { offset: query.offset } : {}),
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
    };
  }

  async list(caller: AuthContext, query: LoweringListQuery): Promise<LoweringRead> {
    const overlap = overlapWindow(query);
    const lowerings = await this.repo().list({ ...this.filter(caller, query), ...(overlap ? { overlap } : {}) });
    if (lowerings.length === 0) throw noRecords();
    return this.read(lowerings, query.format, false);
  }

  /** Lowerings inside a cruise; startTS/stopTS narrow the cruise's bounds (outside values fall back to them). */
  async byCruise(caller: AuthContext, cruiseId: string, query: LoweringListQuery): Promise<LoweringRead> {
    const cruise = await new CruisesRepository(this.ctx.database.db, this.ctx.database.dialect).findById(cruiseId);
    if (!cruise) throw new AppError('BAD_REQUEST', `No cruise record found for id: ${cruiseId}`);
    if (
      !canOpenRecord(
        viewerOf(caller),
        { hidden: cruise.cruise_hidden, accessList: cruise.cruise_access_list },
        this.accessControl,
      )
    ) {
      throw new AppError('UNAUTHORIZED', 'User not authorized to retrieve this cruise');
    }
    const inside = (v: number | undefined) => v !== undefined && v >= cruise.start_ts && v <= cruise.stop_ts;
    const within = {
      start: inside(query.startTS) ? query.startTS! : cruise.start_ts,
      stop: inside(query.stopTS) ? query.stopTS! : cruise.stop_ts,
    };
    const lowerings = await this.repo().list({ ...this.filter(caller, query), within });
    if (lowerings.length === 0) throw noRecords();
    return this.read(lowerings, query.format, false);
  }

  async byEvent(caller: AuthContext, eventId: string, format?: 'json' | 'csv'): Promise<LoweringRead> {
    const ts = await this.repo().eventTime(eventId);
    if (ts === undefined) throw new AppError('BAD_REQUEST', `No event record found for id: ${eventId}`);
    const lowering = await this.repo().findAt(ts, viewerOf(caller), this.accessControl);
    if (!lowering) throw noRecords();
    return this.read([lowering], format, true);
  }

  /** A lowering the caller may open; PATCH answers 400 for a missing one, as Sealog does. */
  private async openable(
    caller: AuthContext,
    id: string,
    action: 'retrieve' | 'edit',
    missing: 'NOT_FOUND' | 'BAD_REQUEST' = 'NOT_FOUND',
  ): Promise<LoweringRecord> {
    const lowering = await this.repo().findById(id);
    if (!lowering) throw new AppError(missing, `No record found for id: ${id}`);
    const access = { hidden: lowering.lowering_hidden, accessList: lowering.lowering_access_list };
    if (!canOpenRecord(viewerOf(caller), access, this.accessControl)) {
      throw new AppError('UNAUTHORIZED', `User not authorized to ${action} this lowering`);
    }
    return lowering;
  }

  async get(caller: AuthContext, id: string, format?: 'json' | 'csv'): Promise<LoweringRead> {
    return this.read([await this.openable(caller, id, 'retrieve')], format, true);
  }

  /** Checks that the caller may open the lowering (used by the file routes). */
  async assertOpenable(caller: AuthContext, id: string, action: 'retrieve' | 'edit'): Promise<void> {
    await this.openable(caller, id, action);
  }

  async bump(caller: AuthContext, id: string): Promise<void> {
    const lowering = await this.openable(caller, id, 'retrieve');
    this.ctx.bus.publish('updateLowerings', toWireLowering(lowering, { useAccessControl: this.accessControl }));
  }

  private async assertUsers(ids: readonly string[] | undefined, message: string): Promise<void> {
    if (!ids || ids.length === 0) return;
    const existing = await new AccessListsRepository(this.ctx.database.db).existingUserIds(ids);
    if (ids.some((id) => !existing.has(id))) throw new AppError('BAD_REQUEST', message);
  }

  private assertAccessListAllowed(list: unknown): void {
    if (list !== undefined && !this.accessControl)
      throw new AppError('BAD_REQUEST', '"lowering_access_list" is not allowed');
  }

  async create(_caller: AuthContext, body: CreateLowering): Promise<string> {
    this.assertAccessListAllowed(body.lowering_access_list);
    assertTimeOrder(body.start_ts, body.stop_ts);
    await this.assertUsers(body.lowering_access_list, 'lowering_access_list includes invalid user IDs');
    const meta: Record<string, unknown> = { ...body.lowering_additional_meta };
    // The file list is always read from the folder; names sent on create (an import) are not stored.
    delete meta.lowering_files;
    const record: LoweringRecord = {
      id: body.id ?? newObjectId(),
      lowering_id: body.lowering_id,
      start_ts: body.start_ts,
      stop_ts: body.stop_ts,
      lowering_location: body.lowering_location,
      lowering_tags: body.lowering_tags,
      lowering_hidden: body.lowering_hidden ?? false,
      lowering_access_list: body.lowering_access_list ?? [],
      lowering_additional_meta: meta,
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
      .ensureFolder('lowering', record.id)
      .catch((err) => this.ctx.log.warn({ err }, 'creating the lowering folder failed'));
    this.ctx.bus.publish('newLowerings', toWireLowering(record, { useAccessControl: this.accessControl }));
    await this.publishCruisesOf(record);
    return record.id;
  }

  async update(caller: AuthContext, id: string, body: UpdateLowering): Promise<void> {
    this.assertAccessListAllowed(body.lowering_access_list);
    const lowering = await this.openable(caller, id, 'edit', 'BAD_REQUEST');
    if (!caller.isAdmin) {
      const locked = changedFields(body, lowering as unknown as Record<string, unknown>, lockedFields);
      if (locked.length > 0) throw new AppError('FORBIDDEN', `Only admins can change ${locked.join(', ')}`);
      if (body.lowering_hidden !== undefined && body.lowering_hidden !== lowering.lowering_hidden) {
        throw new AppError('FORBIDDEN', 'Only admins can hide or show a lowering');
      }
      if (
        body.lowering_access_list !== undefined &&
        !sameList(body.lowering_access_list, lowering.lowering_access_list)
      ) {
        throw new AppError('FORBIDDEN', 'Only admins can change the lowering access list');
      }
    }
    assertTimeOrder(body.start_ts ?? lowering.start_ts, body.stop_ts ?? lowering.stop_ts);
    await this.assertUsers(body.lowering_access_list, 'lowering_access_list include invalid user IDs');
    const sentMeta = body.lowering_additional_meta as Record<string, unknown> | undefined;
    const uploads = sentMeta?.lowering_files
      ? await this.files.checkUploads('lowering', id, sentMeta.lowering_files as string[])
      : [];

    const { lowering_additional_meta: _meta, ...fields } = body;
    const patch: LoweringPatch = { ...fields };
    // The meta is replaced whole (Sealog), except when it carries nothing but new files: a script
    // attaching uploads must not wipe the description, milestones and stats.
    if (sentMeta && Object.keys(sentMeta).some((k) => k !== 'lowering_files')) {
      const meta: Record<string, unknown> = { ...sentMeta };
      // Sealog stored the temporary upload names here (reference §12 item 12); the real names
      // come from the folder on every read, so no list is stored.
      delete meta.lowering_files;
      patch.lowering_additional_meta = meta;
    }
    const updated = await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      await repo.update(id, patch);
      await this.files.commitUploads('lowering', id, uploads);
      return (await repo.findById(id))!;
    });
    this.ctx.bus.publish('updateLowerings', toWireLowering(updated, { useAccessControl: this.accessControl }));
    await this.publishCruisesOf(updated);
  }

  async setPermissions(_caller: AuthContext, id: string, change: PermissionsChange): Promise<void> {
    const lowering = await this.repo().findById(id);
    if (!lowering) throw notFoundFor(id);
    await this.assertUsers(
      [...(change.add ?? []), ...(change.remove ?? [])],
      'lowering_access_list include invalid user IDs',
    );
    const updated = await this.ctx.database.db.transaction().execute(async (trx) => {
      await new AccessListsRepository(trx).changeLists('lowering', [id], change);
      return (await this.repo(trx).findById(id))!;
    });
    this.ctx.bus.publish('updateLowerings', toWireLowering(updated, { useAccessControl: this.accessControl }));
  }

  /** Deletes the lowering and its folder (Sealog left the folder, §12 item 12); events stay. */
  async remove(_caller: AuthContext, id: string): Promise<void> {
    const deleted = await this.repo().delete(id);
    if (deleted === 0) throw notFoundFor(id);
    await this.files.removeFolder('lowering', id);
  }

  async removeAll(_caller: AuthContext): Promise<void> {
    await this.repo().deleteAll();
    await this.files.removeAll('lowering');
  }

  /** updateCruises for every cruise that contains the lowering (reference §7.6 cross-pushes). */
  private async publishCruisesOf(lowering: LoweringRecord): Promise<void> {
    const cruises = await new CruisesRepository(this.ctx.database.db, this.ctx.database.dialect).listContaining(
      lowering.start_ts,
      lowering.stop_ts,
    );
    for (const c of cruises)
      this.ctx.bus.publish('updateCruises', toWireCruise(c, { useAccessControl: this.accessControl }));
  }
}
