import { newObjectId, recordMessages, type PermissionsChange, type WsRecord } from '@bathylog/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import { fileChange, recordChange } from '../audit/audit.js';
import { AccessListsRepository, shipRestriction, type RecordKind } from '../access/access.repository.js';
import { canOpenRecord, viewerOf } from '../access/access.rules.js';
import {
  assertQueryWindow,
  assertTimeOrder,
  changedFields,
  noRecords,
  notFoundFor,
  overlapWindow,
  sameList,
} from './record-rules.js';
import { RecordFilesService } from '../files/files.service.js';
import {
  RecordsRepository,
  type PatchOf,
  type RecordListFilter,
  type RecordOf,
  type RecordWireOptions,
} from './records.repository.js';
import { EventAccess, eventOrigin } from '../access/event-access.js';
import { copiedIds, followsShips } from '../../origins/record-origins.js';

export type RecordRead<W> = { kind: 'json'; body: W | W[] } | { kind: 'csv'; body: string };

/** The list query fields both kinds share; the prefixed ones (`cruise_id`, …) are read by name. */
export interface RecordListQuery {
  startTS?: number;
  stopTS?: number;
  hidden?: boolean;
  format?: 'json' | 'csv';
  sort?: 'newest' | 'oldest';
  offset?: number;
  limit?: number;
}

/** POST body of either kind: the shared fields plus the prefixed ones. */
export type CreateRecord<K extends RecordKind> = { id?: string; start_ts: number; stop_ts: number } & Record<
  `${K}_id` | `${K}_location`,
  string
> &
  Record<`${K}_tags`, string[]> &
  Partial<Record<`${K}_hidden`, boolean>> &
  Partial<Record<`${K}_access_list`, string[]>> &
  Partial<Record<`${K}_public`, boolean | null>> &
  Partial<Record<`${K}_embargo_until`, number | null>> &
  Record<`${K}_additional_meta`, Record<string, unknown>>;

export type UpdateRecord<K extends RecordKind> = Partial<Omit<CreateRecord<K>, 'id'>>;

/** What differs between cruises and lowerings, beyond the column prefix. */
export interface RecordSpec<K extends RecordKind, W> {
  kind: K;
  toWire(record: RecordOf<K>, opts: RecordWireOptions): W;
  toCsv(records: W[]): string;
  channels: { created: 'newCruises' | 'newLowerings'; updated: 'updateCruises' | 'updateLowerings' };
  /** Meta keys only an admin changes (a cruise_manager's form leaves them out; they keep their values). */
  lockedMetaKeys: readonly string[];
  /** Meta keys a list query filters on by exact text (`cruise_vessel`, …). */
  metaFilterKeys: readonly string[];
  /** The status for PATCH on a missing record (Sealog answers 400 for lowerings). */
  missingOnEdit: 'NOT_FOUND' | 'BAD_REQUEST';
}

/**
 * Cruises and lowerings: reads with the hidden and access-list rules, writes with the role rules of
 * docs/roles-and-access.md#cruise-managers and the realtime pushes of docs/wire.md#channels. Each
 * kind's service adds its own reads (bylowering, bycruise) and cascades through the hooks below.
 */
export class RecordsService<K extends RecordKind, W extends WsRecord> {
  protected readonly files: RecordFilesService;
  private readonly kind: K;
  private readonly col: {
    id: string;
    location: string;
    tags: string;
    hidden: string;
    accessList: string;
    meta: string;
    files: string;
    name: string;
    isPublic: string;
    embargo: string;
  };

  constructor(
    protected readonly ctx: AppContext,
    private readonly spec: RecordSpec<K, W>,
  ) {
    this.files = new RecordFilesService(ctx);
    this.kind = spec.kind;
    const k = spec.kind;
    this.col = {
      id: `${k}_id`,
      location: `${k}_location`,
      tags: `${k}_tags`,
      hidden: `${k}_hidden`,
      accessList: `${k}_access_list`,
      meta: `${k}_additional_meta`,
      files: `${k}_files`,
      name: `${k}_name`,
      isPublic: `${k}_public`,
      embargo: `${k}_embargo_until`,
    };
  }

  protected repo(db: Kysely<DB> | Transaction<DB> = this.ctx.database.db): RecordsRepository<K> {
    return new RecordsRepository(this.kind, db, this.ctx.database.dialect);
  }

  protected get accessControl(): boolean {
    return this.ctx.config.useAccessControl;
  }

  protected get wireOptions(): RecordWireOptions {
    return { useAccessControl: this.accessControl, publicArchive: this.ctx.config.publicArchive };
  }

  protected toWire(record: RecordOf<K>): W {
    return this.spec.toWire(record, this.wireOptions);
  }

  /**
   * The record as its channels publish it (no caller: the socket layer filters each delivery), for
   * writes that do not go through this service (copies from a ship, docs/ship-to-shore.md#the-shore).
   */
  async published(id: string): Promise<W | undefined> {
    const record = await this.repo().findById(id);
    return record && this.toWire(record);
  }

  /** The record's fields by column name (the generic code reads the prefixed ones by name). */
  private fields(record: RecordOf<K>): Record<string, unknown> {
    return record as unknown as Record<string, unknown>;
  }

  private async accessOf(record: RecordOf<K>) {
    const f = this.fields(record);
    const fields = {
      hidden: f[this.col.hidden] as boolean,
      accessList: f[this.col.accessList] as string[],
      ref: { kind: this.kind, id: record.id },
    };
    return shipRestriction(this.ctx.database.db, this.kind, record.id, fields);
  }

  /**
   * A record as the archive visitor reads it (docs/public-archive.md#what-is-public): the setting
   * in force (a lowering's inherited one) and no access list; a stub keeps only its ids, name and
   * dates, and lists no files.
   */
  private asArchived(caller: AuthContext, record: RecordOf<K>): { record: RecordOf<K>; stub: boolean } {
    const archive = caller.archive!;
    const setting = archive.setting(this.kind, record.id);
    const stub = archive.state(this.kind, record.id) === 'stub';
    const c = this.col;
    const f = this.fields(record);
    const name = (f[c.meta] as Record<string, unknown>)[c.name];
    const shown = {
      ...f,
      [c.accessList]: [],
      [c.isPublic]: setting.isPublic,
      [c.embargo]: setting.embargoUntil,
      ...(stub ? { [c.location]: '', [c.tags]: [], [c.meta]: name === undefined ? {} : { [c.name]: name } } : {}),
    };
    return { record: shown as RecordOf<K>, stub };
  }

  protected async read(
    caller: AuthContext,
    records: RecordOf<K>[],
    format: 'json' | 'csv' | undefined,
    single: boolean,
  ): Promise<RecordRead<W>> {
    const wire = await Promise.all(
      records.map(async (r) => {
        if (caller.archive) {
          const { record, stub } = this.asArchived(caller, r);
          const files = stub ? [] : await this.files.listForDisplay(this.kind, r.id);
          return this.spec.toWire(record, { useAccessControl: false, publicArchive: true, files });
        }
        return this.spec.toWire(r, { ...this.wireOptions, files: await this.files.listForDisplay(this.kind, r.id) });
      }),
    );
    if (format === 'csv') return { kind: 'csv', body: this.spec.toCsv(wire) };
    return { kind: 'json', body: single ? wire[0]! : wire };
  }

  /** The repository filter of a list query (without its time window, which the callers choose). */
  protected filter(caller: AuthContext, query: RecordListQuery): RecordListFilter {
    if (query.hidden === true && !caller.isAdmin) {
      throw new AppError('UNAUTHORIZED', `User not authorized to retrieve hidden ${this.kind}s`);
    }
    assertQueryWindow(query);
    const q = query as Record<string, unknown>;
    const meta: Record<string, string> = {};
    for (const key of this.spec.metaFilterKeys) if (q[key] !== undefined) meta[key] = q[key] as string;
    return {
      ...(q[this.col.id] !== undefined ? { recordId: q[this.col.id] as string } : {}),
      ...(q[this.col.location] !== undefined ? { location: q[this.col.location] as string } : {}),
      ...(Object.keys(meta).length > 0 ? { meta } : {}),
      ...(q[this.col.tags] !== undefined ? { tags: q[this.col.tags] as string[] } : {}),
      ...(query.hidden !== undefined ? { hidden: query.hidden } : {}),
      viewer: viewerOf(caller),
      useAccessControl: this.accessControl,
      order: query.sort === 'oldest' ? 'asc' : 'desc',
      ...(query.offset !== undefined ? { offset: query.offset } : {}),
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
    };
  }

  async list(caller: AuthContext, query: RecordListQuery): Promise<RecordRead<W>> {
    const filter = this.filter(caller, query);
    const overlap = overlapWindow(query);
    const records = await this.repo().list({ ...filter, ...(overlap ? { overlap } : {}) });
    if (records.length === 0) throw noRecords();
    return this.read(caller, records, query.format, false);
  }

  /**
   * A record the caller may open, or the Sealog 404 (400 for a missing one where `missing` says so) / 401.
   * `stubs`: the archive visitor may also have an embargoed record (read as its stub).
   */
  protected async openable(
    caller: AuthContext,
    id: string,
    action: 'retrieve' | 'edit',
    missing: 'NOT_FOUND' | 'BAD_REQUEST' = 'NOT_FOUND',
    stubs = false,
  ): Promise<RecordOf<K>> {
    const record = await this.repo().findById(id);
    if (!record) throw new AppError(missing, notFoundFor(id).message);
    if (!(await this.opens(caller, record, stubs))) {
      throw new AppError('UNAUTHORIZED', `User not authorized to ${action} this ${this.kind}`);
    }
    return record;
  }

  /** Whether the caller may open the record (`stubs`: an embargoed one opens as its archive stub). */
  private async opens(caller: AuthContext, record: RecordOf<K>, stubs: boolean): Promise<boolean> {
    if (stubs && caller.archive?.state(this.kind, record.id) === 'stub') return true;
    return canOpenRecord(viewerOf(caller), await this.accessOf(record), this.accessControl);
  }

  async get(caller: AuthContext, id: string, format?: 'json' | 'csv'): Promise<RecordRead<W>> {
    return this.read(caller, [await this.openable(caller, id, 'retrieve', 'NOT_FOUND', true)], format, true);
  }

  /**
   * A record by its human id (`S0492`, the WHOI client's `byloweringid` / `bycruiseid`), under
   * the rules for opening a record by its database id: 404 when no record has that id, 401 when
   * the caller may open none of them (docs/sealog-clients.md#whoi-client-routes).
   */
  async getByRecordId(caller: AuthContext, recordId: string, format?: 'json' | 'csv'): Promise<RecordRead<W>> {
    const records = await this.repo().list({ recordId, order: 'asc' });
    if (records.length === 0) throw new AppError('NOT_FOUND', `No record found for ${this.col.id}: ${recordId}`);
    let record: RecordOf<K> | undefined;
    for (const r of records) if (!record && (await this.opens(caller, r, true))) record = r;
    if (!record) throw new AppError('UNAUTHORIZED', `User not authorized to retrieve this ${this.kind}`);
    return this.read(caller, [record], format, true);
  }

  /** Checks that the caller may open the record (used by the file routes). */
  async assertOpenable(caller: AuthContext, id: string, action: 'retrieve' | 'edit'): Promise<void> {
    await this.openable(caller, id, action);
  }

  async byEvent(caller: AuthContext, eventId: string, format?: 'json' | 'csv'): Promise<RecordRead<W>> {
    const ts = await this.repo().eventTime(eventId);
    if (ts === undefined) throw new AppError('BAD_REQUEST', `No event record found for id: ${eventId}`);
    // The visitor learns nothing of an event it may not see, not even which record holds it.
    const fleet = await followsShips(this.ctx);
    if (caller.archive) {
      const access = EventAccess.ofArchive(caller.archive, fleet);
      if (!(await access.maySeeEvent(this.ctx.database.db, { id: eventId, ts }))) throw noRecords();
    }
    // On a fleet shore an event belongs to the records of its own origin only, not to another
    // ship's (or the shore's) record that happens to span its time
    // (docs/public-archive.md#records-from-a-ship).
    const origin = fleet ? await eventOrigin(this.ctx.database.db, eventId) : undefined;
    const record = await this.repo().findContaining(ts, ts, viewerOf(caller), this.accessControl, origin);
    if (!record) throw noRecords();
    return this.read(caller, [record], format, true);
  }

  /** Re-publishes the record on its update channel (clients refresh); for those who may edit it. */
  async bump(caller: AuthContext, id: string): Promise<void> {
    const record = await this.openable(caller, id, 'edit');
    this.ctx.bus.publish(this.spec.channels.updated, this.toWire(record));
  }

  private async assertUsers(ids: readonly string[] | undefined, message: string): Promise<void> {
    if (!ids || ids.length === 0) return;
    const existing = await new AccessListsRepository(this.ctx.database.db).existingUserIds(ids);
    if (ids.some((id) => !existing.has(id))) throw new AppError('BAD_REQUEST', message);
  }

  private assertAccessListAllowed(list: unknown): void {
    if (list !== undefined && !this.accessControl)
      throw new AppError('BAD_REQUEST', `"${this.col.accessList}" is not allowed`);
  }

  /**
   * The archive fields of a body (docs/public-archive.md#on-the-wire): refused while the archive is
   * off, as access lists are without access control; a cruise's null `public` is false (only a
   * lowering inherits).
   */
  private archiveFields(sent: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of [this.col.isPublic, this.col.embargo]) {
      if (sent[key] === undefined) continue;
      if (!this.ctx.config.publicArchive) throw new AppError('BAD_REQUEST', `"${key}" is not allowed`);
      out[key] = sent[key];
    }
    if (this.kind === 'cruise' && out[this.col.isPublic] === null) out[this.col.isPublic] = false;
    return out;
  }

  /**
   * Publishing to the internet (making a record public, moving or lifting its embargo) is
   * admin-only, like hiding and access lists (docs/public-archive.md#who-may-publish): a cruise
   * manager may send the stored values back unchanged, as a form does.
   */
  private assertMayPublish(
    caller: AuthContext,
    archive: Record<string, unknown>,
    stored: Record<string, unknown>,
  ): void {
    if (caller.isAdmin) return;
    const changed = Object.keys(archive).filter((key) => archive[key] !== stored[key]);
    if (changed.length > 0) {
      throw new AppError('FORBIDDEN', `Only admins can publish a ${this.kind} or change its embargo`);
    }
  }

  async create(caller: AuthContext, body: CreateRecord<K>): Promise<string> {
    const c = this.col;
    const sent = body as unknown as Record<string, unknown>;
    const accessList = sent[c.accessList] as string[] | undefined;
    this.assertAccessListAllowed(accessList);
    const archive = this.archiveFields(sent);
    this.assertMayPublish(caller, archive, { [c.isPublic]: this.kind === 'cruise' ? false : null, [c.embargo]: null });
    assertTimeOrder(body.start_ts, body.stop_ts);
    await this.assertUsers(accessList, `${c.accessList} includes invalid user IDs`);
    const meta: Record<string, unknown> = { ...(sent[c.meta] as Record<string, unknown>) };
    // The file list is always read from the folder; names sent on create (an import) are not stored.
    delete meta[c.files];
    const record = {
      id: body.id ?? newObjectId(),
      [c.id]: sent[c.id],
      start_ts: body.start_ts,
      stop_ts: body.stop_ts,
      [c.location]: sent[c.location],
      [c.tags]: sent[c.tags],
      [c.hidden]: sent[c.hidden] ?? false,
      [c.accessList]: accessList ?? [],
      [c.meta]: meta,
      [c.isPublic]: this.kind === 'cruise' ? false : null,
      [c.embargo]: null,
      ...archive,
    } as RecordOf<K>;
    const repo = this.repo();
    if (body.id && (await repo.findById(body.id))) throw new AppError('BAD_REQUEST', recordMessages.duplicateId);
    try {
      await this.ctx.database.db.transaction().execute(async (trx) => {
        await this.repo(trx).insert(record);
        await recordChange(trx, caller, {
          action: 'create',
          record_type: this.kind,
          record_id: record.id,
          new_value: this.toWire(record),
        });
      });
    } catch (err) {
      if (await repo.findById(record.id)) throw new AppError('BAD_REQUEST', recordMessages.duplicateId);
      throw err;
    }
    await this.files
      .ensureFolder(this.kind, record.id)
      .catch((err) => this.ctx.log.warn({ err }, `creating the ${this.kind} folder failed`));
    this.ctx.bus.publish(this.spec.channels.created, this.toWire(record));
    await this.publishRelated(record);
    return record.id;
  }

  async update(caller: AuthContext, id: string, body: UpdateRecord<K>): Promise<void> {
    const c = this.col;
    const sent = body as unknown as Record<string, unknown>;
    const sentAccessList = sent[c.accessList] as string[] | undefined;
    const sentHidden = sent[c.hidden] as boolean | undefined;
    this.assertAccessListAllowed(sentAccessList);
    const archive = this.archiveFields(sent);
    const before = await this.openable(caller, id, 'edit', this.spec.missingOnEdit);
    const stored = this.fields(before);
    const storedMeta = stored[c.meta] as Record<string, unknown>;
    const sentMeta = sent[c.meta] as Record<string, unknown> | undefined;

    if (!caller.isAdmin) {
      const locked = [
        ...changedFields(sent, stored, [c.id, 'start_ts', 'stop_ts']),
        ...(sentMeta ? changedFields(sentMeta, storedMeta, this.spec.lockedMetaKeys) : []),
      ];
      if (locked.length > 0) throw new AppError('FORBIDDEN', `Only admins can change ${locked.join(', ')}`);
      if (sentHidden !== undefined && sentHidden !== stored[c.hidden]) {
        throw new AppError('FORBIDDEN', `Only admins can hide or show a ${this.kind}`);
      }
      if (sentAccessList !== undefined && !sameList(sentAccessList, stored[c.accessList] as string[])) {
        throw new AppError('FORBIDDEN', `Only admins can change the ${this.kind} access list`);
      }
      this.assertMayPublish(caller, archive, stored);
    }
    assertTimeOrder(body.start_ts ?? before.start_ts, body.stop_ts ?? before.stop_ts);
    await this.assertUsers(sentAccessList, `${c.accessList} include invalid user IDs`);
    const uploads = sentMeta?.[c.files]
      ? await this.files.checkUploads(this.kind, id, sentMeta[c.files] as string[])
      : [];

    const patch: Record<string, unknown> = { ...sent, ...archive };
    delete patch[c.meta];
    // The meta is replaced whole (Sealog), except when it carries nothing but new files: a script
    // attaching uploads must not wipe the description and the rest.
    if (sentMeta && Object.keys(sentMeta).some((k) => k !== c.files)) {
      const meta: Record<string, unknown> = { ...sentMeta };
      // Sealog stored the temporary upload names here; the real names
      // come from the folder on every read, so no list is stored.
      delete meta[c.files];
      // A cruise_manager's form leaves the locked keys out; they keep their stored values.
      if (!caller.isAdmin) {
        for (const key of this.spec.lockedMetaKeys) {
          if (meta[key] === undefined && storedMeta[key] !== undefined) meta[key] = storedMeta[key];
        }
      }
      patch[c.meta] = meta;
    }

    const updated = await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      await repo.update(id, patch as PatchOf<K>);
      const after = (await repo.findById(id))!;
      await this.cascadeUpdate(trx, before, after, { hidden: sentHidden, accessList: sentAccessList });
      const hiding = sentHidden !== undefined && sentHidden !== stored[c.hidden];
      await recordChange(trx, caller, {
        action: hiding ? (sentHidden ? 'hide' : 'show') : 'update',
        record_type: this.kind,
        record_id: id,
        old_value: this.toWire(before),
        new_value: this.toWire(after),
      });
      // Last, so a failed move rolls the record back.
      const storedFiles = await this.files.commitUploads(this.kind, id, uploads);
      if (storedFiles.length > 0)
        await recordChange(trx, caller, fileChange('upload', { record_type: this.kind, record_id: id }, storedFiles));
      return after;
    });
    this.ctx.bus.publish(this.spec.channels.updated, this.toWire(updated));
    await this.publishRelated(updated);
  }

  /** PATCH …/permissions: add and remove user ids on the record (and whatever `cascadePermissions` adds). */
  async setPermissions(caller: AuthContext, id: string, change: PermissionsChange): Promise<void> {
    const record = await this.repo().findById(id);
    if (!record) throw notFoundFor(id);
    await this.assertUsers(
      [...(change.add ?? []), ...(change.remove ?? [])],
      `${this.col.accessList} include invalid user IDs`,
    );
    const updated = await this.ctx.database.db.transaction().execute(async (trx) => {
      const access = new AccessListsRepository(trx);
      await access.changeLists(this.kind, [id], change);
      await this.cascadePermissions(trx, access, record, change);
      const after = (await this.repo(trx).findById(id))!;
      await recordChange(trx, caller, {
        action: 'permissions',
        record_type: this.kind,
        record_id: id,
        old_value: this.toWire(record),
        new_value: this.toWire(after),
      });
      return after;
    });
    this.ctx.bus.publish(this.spec.channels.updated, this.toWire(updated));
    await this.afterPermissions(updated);
  }

  /** Deletes the record and its folder; events stay (membership is by time). */
  async remove(caller: AuthContext, id: string): Promise<void> {
    const cleanUp = await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const record = await repo.findById(id);
      if (!record) throw notFoundFor(id);
      const after = await this.cascadeRemove(trx, caller, [id]);
      if ((await repo.delete(id)) === 0) throw notFoundFor(id);
      await recordChange(trx, caller, {
        action: 'delete',
        record_type: this.kind,
        record_id: id,
        old_value: this.toWire(record),
      });
      return after;
    });
    await this.files.removeFolder(this.kind, id);
    await cleanUp?.();
  }

  async removeAll(caller: AuthContext): Promise<void> {
    let kept = new Set<string>();
    let removed: string[] = [];
    const cleanUp = await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const all = await repo.list({ order: 'asc' });
      // On a shore, records copied from a ship are left out (docs/ship-to-shore.md#bulk-deletes-on-shore).
      const copied = await copiedIds(
        this.ctx,
        trx,
        this.kind,
        all.map((r) => r.id),
      );
      const records = copied.size === 0 ? all : all.filter((r) => !copied.has(r.id));
      const after = await this.cascadeRemove(
        trx,
        caller,
        records.map((r) => r.id),
      );
      if (copied.size === 0) await repo.deleteAll();
      else for (const record of records) await repo.delete(record.id);
      kept = copied;
      removed = records.map((r) => r.id);
      for (const record of records) {
        await recordChange(trx, caller, {
          action: 'bulk_delete',
          record_type: this.kind,
          record_id: record.id,
          old_value: this.toWire(record),
        });
      }
      return after;
    });
    if (kept.size === 0) await this.files.removeAll(this.kind);
    else for (const id of removed) await this.files.removeFolder(this.kind, id);
    await cleanUp?.();
  }

  /**
   * Deletes what belongs to records being deleted, inside the deleting transaction (a lowering's
   * recordings, registered by the modules that own them in `ctx.removeCascades`); answers the work
   * left for after the commit (their files in the store).
   */
  private async cascadeRemove(
    trx: Transaction<DB>,
    caller: AuthContext,
    ids: readonly string[],
  ): Promise<(() => Promise<void>) | undefined> {
    const after: Array<() => Promise<void>> = [];
    for (const cascade of this.ctx.removeCascades[this.kind]) {
      const next = await cascade(this.ctx, trx, caller, ids);
      if (next) after.push(next);
    }
    if (after.length === 0) return undefined;
    return async () => {
      for (const next of after) await next();
    };
  }

  /** Pushes for the other kind's records touched by a create or update (the cross-pushes of docs/wire.md#channels). */
  protected async publishRelated(_record: RecordOf<K>): Promise<void> {}

  /** Carries an update's hidden flag and access list down, inside the update's transaction. */
  protected async cascadeUpdate(
    _trx: Transaction<DB>,
    _before: RecordOf<K>,
    _after: RecordOf<K>,
    _sent: { hidden: boolean | undefined; accessList: string[] | undefined },
  ): Promise<void> {}

  /** Carries a permissions change down, inside its transaction. */
  protected async cascadePermissions(
    _trx: Transaction<DB>,
    _access: AccessListsRepository,
    _record: RecordOf<K>,
    _change: PermissionsChange,
  ): Promise<void> {}

  /** Pushes after a permissions change, beyond the record's own update. */
  protected async afterPermissions(_record: RecordOf<K>): Promise<void> {}
}
