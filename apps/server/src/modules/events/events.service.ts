import {
  eventsToCsv,
  messages,
  newObjectId,
  normalizeOptionName,
  isCommentOnlyChange,
  mayChangeEvent,
  mayDeleteEvent,
  publishesNewEvent,
  type CreateEvent,
  type CreateEventResponse,
  type EventGetQuery,
  type EventListQuery,
  type EventOption,
  type LogEvent,
  type EventAuxData,
  type UpdateEvent,
  eventAttachmentsDataSource,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import type { Transaction } from 'kysely';
import type { DB, EventsTable } from '../../db/schema.js';
import type { Database } from '../../db/database.js';
import { GroupCommit, writeBatch } from '../../db/group-commit.js';
import { AppError } from '../../lib/app-error.js';
import { parseJson } from '../../lib/json.js';
import type { AuthContext } from '../../plugins/auth.js';
import { EventAccess } from '../access/event-access.js';
import { EventAuxDataRepository } from '../event-aux-data/event-aux-data.repository.js';
import { AuditRepository } from '../audit/audit.repository.js';
import { attachmentFileExists, removeAttachmentsOfEvents, removeOrphanAttachments } from '../files/attachment-files.js';
import { auditRow, recordChange } from '../audit/audit.js';
import {
  eventCreatePostgresWriter,
  eventCreateWriter,
  eventCreateWriterName,
  type EventCreateWrite,
} from './event-create-writer.js';
import { buildEventFilter, globalWindow } from './event-filter.js';
import {
  csvContentType,
  csvEvent,
  eventCsvOutput,
  eventJson,
  jsonArrayOutput,
  jsonContentType,
  mapChunks,
  toWireAux,
  toWireEvent,
  type Output,
} from './event-output.js';
import { EventQueries, eventChunks, type EventScope } from './event-queries.js';
import { EventSearch, type EventRow } from './event-search.js';
import { EventsRepository } from './events.repository.js';
import { RecordIds } from './record-windows.repository.js';
import { copiedIds, followsShips } from '../../origins/record-origins.js';

const parseOptions = (text: string) => parseJson<EventOption[]>(text, []);

function normalizeOptions(options: readonly EventOption[]): EventOption[] {
  return options.map((o) => ({
    event_option_name: normalizeOptionName(o.event_option_name),
    event_option_value: o.event_option_value,
  }));
}

/** The not-found answers of the bycruise/bylowering routes, spelt as Sealog spells them (docs/wire.md#events). */
const scopeNotFound = {
  list: {
    cruise: (id: string) => new AppError('BAD_REQUEST', `No cruise record found for id: ${id}`),
    lowering: (id: string) => new AppError('BAD_REQUEST', `No record lowering found for id: ${id}`),
  },
  count: {
    cruise: (id: string) => new AppError('BAD_REQUEST', `No record cruise found for id: ${id}`),
    lowering: (id: string) => new AppError('BAD_REQUEST', `No record lowering found for id: ${id}`),
  },
};

/** The lowering a bylowering list reads (its own required aux sources judge completeness). */
function loweringOf(scope: EventScope): string | undefined {
  return scope.kind === 'lowering' ? scope.id : undefined;
}

function notFoundFor(route: 'list' | 'count', scope: EventScope): AppError {
  return scope.kind === 'all'
    ? new AppError('NOT_FOUND', messages.noRecords)
    : scopeNotFound[route][scope.kind](scope.id);
}

const committers = new WeakMap<Database, GroupCommit<EventCreateWrite, void>>();

/** The group committer of event creates of a database (shared by every EventsService on it). */
function eventCreates(database: Database): GroupCommit<EventCreateWrite, void> {
  let gc = committers.get(database);
  if (!gc) {
    const { writeWorker } = database;
    // A SQLite file writes its batches on its write thread; PostgreSQL commits on several pooled
    // connections at once.
    gc = writeWorker
      ? new GroupCommit((items) => writeWorker.run(eventCreateWriterName, items))
      : database.dialect === 'postgres'
        ? new GroupCommit(async (items) => {
            try {
              return await writeBatch(database.db, eventCreatePostgresWriter, items);
            } finally {
              // The search indexes' pending lists are merged soon, not in a later batch's insert.
              database.ginPendingCleanup?.wrote();
            }
          }, 4)
        : new GroupCommit((items) => writeBatch(database.db, eventCreateWriter, items));
    committers.set(database, gc);
  }
  return gc;
}

/** Events (docs/wire.md#events, docs/wire.md#event-filters): search, CRUD, the live channels and the delete rules. */
export class EventsService {
  private readonly queries: EventQueries;

  constructor(private readonly ctx: AppContext) {
    this.queries = new EventQueries(ctx);
  }

  private get db() {
    return this.ctx.database.db;
  }

  async list(caller: AuthContext, query: EventListQuery, scope: EventScope, access: EventAccess): Promise<Output> {
    const window = await this.queries.window(caller, scope, notFoundFor('list', scope));
    const resolved = await this.queries.resolve(query, window, 'substring', access, loweringOf(scope));
    const rows = this.queries.rows(resolved, {
      order: query.sort === 'newest' ? 'desc' : 'asc',
      offset: query.offset,
      limit: query.limit,
    });
    // Unlike Sealog, format and add_record_ids apply with a datasource filter too.
    const items = this.queries.items(rows, {
      aux: false,
      ids: await this.queries.recordIds(query.add_record_ids),
      origins: query.format !== 'csv',
    });
    return query.format === 'csv' ? eventCsvOutput(items) : jsonArrayOutput(mapChunks(items, eventJson));
  }

  async count(
    caller: AuthContext,
    query: EventListQuery,
    scope: EventScope,
    access: EventAccess,
  ): Promise<{ events: number }> {
    const window = await this.queries.window(caller, scope, notFoundFor('count', scope));
    const resolved = await this.queries.resolve(query, window, 'substring', access, loweringOf(scope));
    return { events: await this.queries.search.count(resolved) };
  }

  async get(id: string, query: EventGetQuery, access: EventAccess): Promise<Output> {
    const row = await new EventsRepository(this.db).findById(id);
    // An event the caller may not see is answered as one that does not exist.
    if (!row || !(await access.maySeeEvent(this.db, row)))
      throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
    const item = {
      row,
      ids: query.add_record_ids ? (await RecordIds.load(this.db)).for(row.ts) : {},
      // The aux records follow their event: the same access check above covers them.
      ...(query.aux_data ? { aux: await new EventAuxDataRepository(this.db).listByEventIds([id]) } : {}),
    };
    if (query.format === 'csv') return { contentType: csvContentType, body: eventsToCsv([csvEvent(item)]) };
    return { contentType: jsonContentType, body: eventJson(item) };
  }

  async create(caller: AuthContext, body: CreateEvent, access: EventAccess): Promise<CreateEventResponse> {
    const repo = new EventsRepository(this.db);
    if (body.id !== undefined && (await repo.exists(body.id)))
      throw new AppError('BAD_REQUEST', messages.duplicateEvent);
    const row: EventsTable = {
      id: body.id ?? newObjectId(),
      ts: body.ts ?? Date.now(),
      event_author: body.event_author ?? caller.user.username,
      event_value: body.event_value,
      event_options: JSON.stringify(normalizeOptions(body.event_options ?? [])),
      event_free_text: body.event_free_text ?? '',
      created_by: caller.user.id,
      created_at: Date.now(),
    };
    access.assertMayWriteAt(row.ts);
    const event = toWireEvent(row);
    const audit = auditRow(caller, { action: 'create', record_type: 'event', record_id: row.id, new_value: event });
    try {
      // Concurrent creates share one durable commit; each is answered after it (group-commit.ts).
      await eventCreates(this.ctx.database).write({ row, audit });
    } catch (err) {
      // Two creates with the same client id at once: the loser gets the same answer as a repeat.
      if (body.id !== undefined && (await repo.exists(row.id)))
        throw new AppError('BAD_REQUEST', messages.duplicateEvent);
      throw err;
    }
    if (publishesNewEvent(row.ts, body.publish)) this.ctx.bus.publish('newEvents', event);
    return { acknowledged: true, insertedId: row.id, insertedEvent: event };
  }

  /**
   * A changed ts is announced as Sealog does (deleteEvents, then newEvents, so every list
   * re-sorts it), but the aux data stays with the event: Sealog deleted it, silently losing the
   * navigation and frame grabs of an event whose time was merely corrected.
   */
  async update(caller: AuthContext, id: string, body: UpdateEvent, access: EventAccess): Promise<void> {
    if (body.ts !== undefined) access.assertMayWriteAt(body.ts);
    await this.db.transaction().execute(async (trx) => {
      const repo = new EventsRepository(trx);
      const existing = await repo.findById(id);
      if (!existing || !(await access.maySeeEvent(trx, existing)))
        throw new AppError('BAD_REQUEST', `No event record found for id: ${id}`);
      this.assertMayChange(caller, existing, body);
      await this.applyUpdate(trx, caller, repo, existing, body);
    });
  }

  /** Anyone who logs may comment on any event; the rest is its creator's, admins' and event managers'. */
  private assertMayChange(caller: AuthContext, existing: EventRow, body: UpdateEvent): void {
    if (caller.isAdmin || mayChangeEvent(caller.user, { created_by: existing.created_by ?? null })) return;
    const stored = { ...existing, event_options: parseOptions(existing.event_options) };
    if (isCommentOnlyChange(stored, body)) return;
    throw new AppError(
      'FORBIDDEN',
      'Only admins, event managers and whoever created this event can change it (anyone may change its comment)',
    );
  }

  private async applyUpdate(
    trx: Transaction<DB>,
    caller: AuthContext,
    repo: EventsRepository,
    existing: EventRow,
    body: UpdateEvent,
  ): Promise<void> {
    const id = existing.id;
    const patch: Partial<Omit<EventsTable, 'id'>> = {
      ...(body.event_author !== undefined ? { event_author: body.event_author } : {}),
      ...(body.ts !== undefined ? { ts: body.ts } : {}),
      ...(body.event_value !== undefined ? { event_value: body.event_value } : {}),
      ...(body.event_options !== undefined
        ? { event_options: JSON.stringify(normalizeOptions(body.event_options)) }
        : {}),
      ...(body.event_free_text !== undefined ? { event_free_text: body.event_free_text } : {}),
    };
    await repo.update(id, patch);
    const event = toWireEvent({ ...existing, ...patch } as EventRow);
    // A change of the options alone that adds a comment is the Event Details "comment".
    const commented =
      Object.keys(patch).length === 1 && patch.event_options !== undefined && /event_comment/.test(patch.event_options);
    await recordChange(trx, caller, {
      action: commented ? 'comment' : 'update',
      record_type: 'event',
      record_id: id,
      old_value: toWireEvent(existing),
      new_value: event,
    });
    if (body.ts !== undefined && body.ts !== existing.ts) {
      this.ctx.bus.publish('deleteEvents', event);
      this.ctx.bus.publish('newEvents', event);
    } else {
      this.ctx.bus.publish('updateEvents', event);
    }
  }

  async remove(caller: AuthContext, id: string, access: EventAccess): Promise<void> {
    const deleted = await this.db.transaction().execute(async (trx) => {
      const events = new EventsRepository(trx);
      const event = await events.findById(id);
      if (!event || !(await access.maySeeEvent(trx, event)))
        throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
      const mayDelete =
        caller.isAdmin ||
        mayDeleteEvent(
          caller.user,
          { created_by: event.created_by ?? null, created_at: event.created_at ?? null },
          Date.now(),
        );
      if (!mayDelete) {
        throw new AppError(
          'FORBIDDEN',
          'Only admins and event managers can delete this event (whoever created it may delete it for an hour)',
        );
      }
      const auxRepo = new EventAuxDataRepository(trx);
      const aux = await auxRepo.listByEventIds([id]);
      await auxRepo.deleteByEventIds([id]);
      await events.delete(id);
      await recordChange(trx, caller, {
        action: 'delete',
        record_type: 'event',
        record_id: id,
        old_value: { ...toWireEvent(event), aux_data: aux.map(toWireAux), created_by: event.created_by ?? null },
      });
      return { event, aux };
    });
    // The event's attached pictures go with it, once the delete is durable.
    await this.removePictures([id]);
    this.ctx.bus.publish('deleteEvents', { ...toWireEvent(deleted.event), aux_data: deleted.aux.map(toWireAux) });
  }

  /** DELETE /events: the events GET /events would list (filters, sort, offset, limit), with their aux data. No publish. */
  async bulkDelete(
    caller: AuthContext,
    query: EventListQuery,
    access: EventAccess,
  ): Promise<{ deletedCount: number; keptFromShips?: number }> {
    const pictures: string[] = [];
    const filter = buildEventFilter(query, globalWindow(), 'substring', access);
    await this.queries.addCompleteness(filter, query);
    const result = await this.db.transaction().execute(async (trx) => {
      const search = new EventSearch(trx, this.ctx.database.dialect);
      const resolved = await search.resolve(filter);
      const events = new EventsRepository(trx);
      const aux = new EventAuxDataRepository(trx);
      let deletedCount = 0;
      let keptFromShips = 0;
      // Keyset chunks: rows already deleted lie behind the cursor, so deleting as we go is safe.
      const chunks = eventChunks(search, resolved, {
        order: query.sort === 'newest' ? 'desc' : 'asc',
        offset: query.offset,
        limit: query.limit,
      });
      for await (const all of chunks()) {
        // On a shore, events copied from a ship are left out (docs/ship-to-shore.md#bulk-deletes-on-shore).
        const copied = await copiedIds(
          this.ctx,
          trx,
          'event',
          all.map((r) => r.id),
        );
        const rows = copied.size === 0 ? all : all.filter((r) => !copied.has(r.id));
        keptFromShips += copied.size;
        const ids = rows.map((r) => r.id);
        const auxRows = await aux.listByEventIds(ids);
        await aux.deleteByEventIds(ids);
        deletedCount += await events.deleteMany(ids);
        pictures.push(...ids);
        // One row per event, each restorable like a single delete.
        for (const row of rows) {
          await recordChange(trx, caller, {
            action: 'bulk_delete',
            record_type: 'event',
            record_id: row.id,
            old_value: {
              ...toWireEvent(row),
              aux_data: auxRows.filter((a) => a.event_id === row.id).map(toWireAux),
            },
          });
        }
      }
      return keptFromShips > 0 ? { deletedCount, keptFromShips } : { deletedCount };
    });
    await this.removePictures(pictures);
    return result;
  }

  /** DELETE /events/all: every event and aux record. No publish (Sealog). */
  async removeAll(caller: AuthContext): Promise<void> {
    // A shore keeps the events it copied from its ships: its own go, as by a bulk delete of all
    // (docs/ship-to-shore.md#bulk-deletes-on-shore).
    if (await followsShips(this.ctx)) {
      await this.bulkDelete(caller, {}, EventAccess.everything);
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      const repo = new EventsRepository(trx);
      const count = await repo.count();
      await repo.deleteAll(this.ctx.database.dialect);
      // A wipe is recorded once, with how many events went (not every event: a wipe clears a ship's
      // whole log; the backup is its record).
      await recordChange(trx, caller, {
        action: 'wipe',
        record_type: 'event',
        record_id: null,
        old_value: { events: count },
      });
    });
    // Every attached picture whose event is gone (a picture attached meanwhile to a new event stays).
    await removeOrphanAttachments(this.ctx.store, (ids) => new EventsRepository(this.db).existingIds(ids)).catch(
      (err: unknown) => this.ctx.log.warn({ err }, 'the pictures of wiped events stay until the next wipe'),
    );
  }

  /**
   * The pictures of deleted events. The delete is durable already: a file store that is down
   * leaves the pictures (removed with the next wipe) rather than failing a done delete.
   */
  private async removePictures(eventIds: readonly string[]): Promise<void> {
    await removeAttachmentsOfEvents(this.ctx.store, eventIds).catch((err: unknown) =>
      this.ctx.log.warn({ err, events: eventIds.length }, 'the pictures of deleted events stay'),
    );
  }

  /**
   * Aux records as they can be restored: the pictures of an attachments record were deleted with
   * the event, so only those still on disk are listed again (the record goes when none is left).
   */
  private async withStoredAttachments(aux: readonly EventAuxData[]): Promise<EventAuxData[]> {
    const out: EventAuxData[] = [];
    for (const record of aux) {
      if (record.data_source !== eventAttachmentsDataSource) {
        out.push(record);
        continue;
      }
      const items: EventAuxData['data_array'] = [];
      const list = record.data_array;
      for (let i = 0; i < list.length; i++) {
        const item = list[i]!;
        if (item.data_name !== 'filename') continue;
        if (!(await attachmentFileExists(this.ctx.store, String(item.data_value)))) continue;
        const camera = i > 0 && list[i - 1]!.data_name === 'camera_name' ? [list[i - 1]!] : [];
        items.push(...camera, item);
      }
      if (items.length > 0) out.push({ ...record, data_array: items });
    }
    return out;
  }

  /**
   * Restores an event deleted (alone or in a bulk delete) from its audit row, with its aux data,
   * under its old id; recorded as a `restore` and announced as a new event.
   */
  async restore(caller: AuthContext, seq: number): Promise<CreateEventResponse> {
    const event = await this.db.transaction().execute(async (trx) => {
      const entry = await new AuditRepository(trx).findBySeq(seq);
      if (!entry) throw new AppError('NOT_FOUND', `No audit record found for seq: ${seq}`);
      if (entry.record_type !== 'event' || !['delete', 'bulk_delete'].includes(entry.action) || !entry.old_value) {
        throw new AppError('BAD_REQUEST', 'Only a deleted event can be restored from its audit record');
      }
      const old = JSON.parse(entry.old_value) as LogEvent & {
        aux_data?: EventAuxData[];
        created_by?: string | null;
      };
      const events = new EventsRepository(trx);
      if (await events.exists(old.id)) throw new AppError('BAD_REQUEST', 'The event exists: it was already restored');
      const row: EventsTable = {
        id: old.id,
        ts: Date.parse(old.ts),
        event_author: old.event_author,
        event_value: old.event_value,
        event_options: JSON.stringify(old.event_options ?? []),
        event_free_text: old.event_free_text ?? '',
        // Whoever created it keeps its rights; an event deleted before the server recorded that has none.
        // Its delete window is over (no creation time): an admin brought it back.
        created_by: old.created_by ?? null,
        created_at: null,
      };
      await events.insert(row);
      const auxRepo = new EventAuxDataRepository(trx);
      const restoredAux = await this.withStoredAttachments(old.aux_data ?? []);
      for (const aux of restoredAux) {
        await auxRepo.insert({
          id: aux.id,
          event_id: old.id,
          data_source: aux.data_source,
          data_array: JSON.stringify(aux.data_array),
        });
      }
      const restored = toWireEvent(row);
      await recordChange(trx, caller, {
        action: 'restore',
        record_type: 'event',
        record_id: old.id,
        new_value: { ...restored, aux_data: restoredAux },
      });
      return restored;
    });
    this.ctx.bus.publish('newEvents', event);
    return { acknowledged: true, insertedId: event.id, insertedEvent: event };
  }
}
