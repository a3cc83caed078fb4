import {
  auxDataChangeRefused,
  mayChangeAuxData,
  mergeAuxDataArrays,
  newObjectId,
  shouldPublish,
  splitFilterTerms,
  splitNegatedTerms,
  type AuxDataByRecordQuery,
  type AuxDataItem,
  type AuxDataListQuery,
  type CreateEventAuxData,
  type EventAuxData,
  type UpdateEventAuxData,
} from '@bathylog/shared';
import { sql, type RawBuilder } from 'kysely';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { recordChange } from '../audit/audit.js';
import { parseJson } from '../../lib/json.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { EventAccess } from '../access/event-access.js';
import { globalWindow } from '../events/event-filter.js';
import { auxJson, jsonArrayOutput, toWireAux, type ChunkSource, type Output } from '../events/event-output.js';
import { EventQueries, groupByEvent } from '../events/event-queries.js';
import type { EventRow } from '../events/event-search.js';
import { EventsRepository } from '../events/events.repository.js';
import type { RecordKind } from '../access/access.repository.js';
import { auxTextCondition } from './aux-data-search.js';
import { EventAuxDataRepository, type AuxRow } from './event-aux-data.repository.js';

const chunkSize = 1000;

/** `attachments`: the write comes from the attachments service, which checked its own rule. */
interface WriteOptions {
  attachments?: boolean;
}

/** The not-found answers of the by-record routes, spelt as Sealog spells them (docs/wire.md#event-aux-data). */
const recordNotFound: Record<RecordKind, (id: string) => AppError> = {
  cruise: (id) => new AppError('BAD_REQUEST', `Cruise not found for id${id}`),
  lowering: () => new AppError('NOT_FOUND', 'lowering not found for that id'),
};

const eventNotFound = () => new AppError('BAD_REQUEST', 'event not found');
const pairTaken = () => new AppError('BAD_REQUEST', 'aux data for this event and data source already exists');

/** Exact aux-data sources asked for, or null for any. */
function datasourceList(values: string[] | undefined): string[] | null {
  const terms = [...new Set(splitFilterTerms(values))];
  return terms.length > 0 ? terms : null;
}

/** Applies offset and limit to aux records as they stream. */
function page<T>(source: ChunkSource<T>, offset: number | undefined, limit: number | undefined): ChunkSource<T> {
  return async function* () {
    let skip = offset ?? 0;
    let remaining = limit ?? Number.POSITIVE_INFINITY;
    for await (let chunk of source()) {
      if (skip > 0) {
        const dropped = Math.min(skip, chunk.length);
        chunk = chunk.slice(dropped);
        skip -= dropped;
      }
      if (chunk.length === 0) continue;
      if (chunk.length > remaining) chunk = chunk.slice(0, remaining);
      remaining -= chunk.length;
      yield chunk;
      if (remaining <= 0) return;
    }
  };
}

/**
 * Event aux data (docs/wire.md#event-aux-data) with Sealog's defects fixed: a record always belongs to an
 * existing event (no orphans), PATCH keeps the event id and lets new values win, `data_uom` may be
 * empty, and updates and deletes are published too.
 */
export class EventAuxDataService {
  private readonly queries: EventQueries;

  constructor(private readonly ctx: AppContext) {
    this.queries = new EventQueries(ctx);
  }

  private get repo() {
    return new EventAuxDataRepository(this.ctx.database.db);
  }

  /** The `fulltext` condition on `event_aux_data.id`, or null without terms. */
  private textCondition(fulltext: string[] | undefined): RawBuilder<boolean> | null {
    const terms = splitNegatedTerms(splitFilterTerms(fulltext));
    return auxTextCondition(this.ctx.database.dialect, terms, sql.ref('event_aux_data.id'));
  }

  /** Aux records of the events a source yields, in event order, of the given sources (and text) only. */
  private auxOfEvents(
    events: ChunkSource<EventRow>,
    sources: string[] | null,
    text: RawBuilder<boolean> | null,
  ): ChunkSource<string> {
    const repo = this.repo;
    return async function* () {
      for await (const rows of events()) {
        const byEvent = groupByEvent(
          await repo.listByEventIds(
            rows.map((r) => r.id),
            sources,
            text,
          ),
        );
        const out: string[] = [];
        for (const row of rows) for (const aux of byEvent.get(row.id) ?? []) out.push(auxJson(aux));
        if (out.length > 0) yield out;
      }
    };
  }

  private async auxOfFilteredEvents(
    query: AuxDataByRecordQuery,
    window: { lo: number; hi: number },
    access: EventAccess,
  ): Promise<Output> {
    const sources = datasourceList(query.datasource);
    // `fulltext` is about the aux records here, not the events (EventFilter's fulltext).
    const { fulltext, ...eventQuery } = query;
    const resolved = await this.queries.resolve(eventQuery, window, 'exact', access);
    const events = this.queries.rows(resolved, { order: 'asc' });
    return jsonArrayOutput(
      page(this.auxOfEvents(events, sources, this.textCondition(fulltext)), query.offset, query.limit),
    );
  }

  async list(query: AuxDataListQuery, access: EventAccess): Promise<Output> {
    const eventFilter = ['author', 'value', 'freetext', 'startTS', 'stopTS'].some(
      (k) => query[k as keyof AuxDataListQuery] !== undefined,
    );
    if (eventFilter) {
      if (query.eventID !== undefined) {
        throw new AppError(
          'BAD_REQUEST',
          'Cannot include param eventID when using author, value, freetext, startTS or stopTS',
        );
      }
      return this.auxOfFilteredEvents(query, globalWindow(), access);
    }
    const sources = datasourceList(query.datasource);
    const text = this.textCondition(query.fulltext);
    const repo = this.repo;
    const records: ChunkSource<string> = async function* () {
      let afterId: string | undefined;
      let skip = query.offset ?? 0;
      let remaining = query.limit ?? Number.POSITIVE_INFINITY;
      while (remaining > 0) {
        const take = Math.min(chunkSize, remaining);
        const rows = await repo.chunk({
          eventId: query.eventID,
          sources,
          afterId,
          offset: skip,
          limit: take,
          text,
          hidden: access,
        });
        if (rows.length === 0) return;
        yield rows.map(auxJson);
        remaining -= rows.length;
        if (rows.length < take) return;
        skip = 0;
        afterId = rows[rows.length - 1]!.id;
      }
    };
    return jsonArrayOutput(records);
  }

  async byRecord(
    caller: AuthContext,
    kind: RecordKind,
    id: string,
    query: AuxDataByRecordQuery,
    access: EventAccess,
  ): Promise<Output> {
    const notFound = recordNotFound[kind](id);
    const record =
      kind === 'lowering'
        ? await this.queries.recordByIdOrName(caller, kind, id, notFound)
        : await this.queries.record(caller, kind, id, notFound);
    return this.auxOfFilteredEvents(query, { lo: record.start_ts, hi: record.stop_ts }, access);
  }

  /** The event of an aux record, when it exists and the caller may see it (else as if missing). */
  private async visibleEvent(eventId: string, access: EventAccess): Promise<EventRow | undefined> {
    const event = await new EventsRepository(this.ctx.database.db).findById(eventId);
    return event && (await access.maySeeEvent(this.ctx.database.db, event)) ? event : undefined;
  }

  /** An aux record whose event the caller may see, or undefined as if it did not exist. */
  private async visibleRecord(id: string, access: EventAccess): Promise<AuxRow | undefined> {
    const row = await this.repo.findById(id);
    if (!row || access.seesEverything) return row;
    return (await this.visibleEvent(row.event_id, access)) ? row : undefined;
  }

  /**
   * Aux data follows its event's change rule (docs/security.md#who-may-change-an-events-data):
   * admins, event managers, aux-data inserters and the event's creator. Checked for every event a
   * change touches (the record's, and the one it moves to). `attachments`: the attachments
   * service checked its own rule for the event's pictures record.
   */
  private async assertMayChange(caller: AuthContext, eventIds: readonly string[], opts: WriteOptions): Promise<void> {
    if (caller.isAdmin || opts.attachments) return;
    const events = new EventsRepository(this.ctx.database.db);
    for (const id of new Set(eventIds)) {
      const event = await events.findById(id);
      if (!mayChangeAuxData(caller.user, { created_by: event?.created_by ?? null }))
        throw new AppError('FORBIDDEN', auxDataChangeRefused);
    }
  }

  async get(id: string, access: EventAccess): Promise<EventAuxData> {
    const row = await this.visibleRecord(id, access);
    if (!row) throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
    return toWireAux(row);
  }

  /**
   * POST is an upsert (docs/wire.md#event-aux-data): a record for the same (event, data source) has its
   * data_array replaced (204); otherwise a record is created (201). A client id names the record
   * to create or replace. The event must exist either way. Published on the event's live window.
   */
  async create(
    caller: AuthContext,
    body: CreateEventAuxData,
    access: EventAccess,
    opts: WriteOptions = {},
  ): Promise<{ insertedId: string } | null> {
    const repo = this.repo;
    const event = await this.visibleEvent(body.event_id, access);
    if (!event) throw eventNotFound();
    await this.assertMayChange(caller, [event.id], opts);
    const dataArray = JSON.stringify(body.data_array ?? []);
    const live = shouldPublish(event.ts, true);

    const replace = async (target: AuxRow, patch: Partial<AuxRow>) => {
      const updated = { ...target, ...patch };
      await this.ctx.database.db.transaction().execute(async (trx) => {
        await new EventAuxDataRepository(trx).update(target.id, patch);
        await recordChange(trx, caller, {
          action: 'update',
          record_type: 'event_aux_data',
          record_id: target.id,
          old_value: toWireAux(target),
          new_value: toWireAux(updated),
        });
      });
      if (live && updated.data_array !== target.data_array)
        this.ctx.bus.publish('updateEventAuxData', toWireAux(updated));
      return null;
    };

    if (body.id !== undefined) {
      const byId = await repo.findById(body.id);
      if (byId) {
        // A record id of an event the caller may not see is not theirs to take over.
        if (!access.seesEverything && !(await this.visibleEvent(byId.event_id, access))) throw eventNotFound();
        await this.assertMayChange(caller, [byId.event_id], opts);
        const holder = await repo.findByEventAndSource(body.event_id, body.data_source);
        if (holder && holder.id !== byId.id) throw pairTaken();
        return replace(byId, { event_id: body.event_id, data_source: body.data_source, data_array: dataArray });
      }
    }
    const existing = await repo.findByEventAndSource(body.event_id, body.data_source);
    if (existing) return replace(existing, { data_array: dataArray });

    const row: AuxRow = {
      id: body.id ?? newObjectId(),
      event_id: body.event_id,
      data_source: body.data_source,
      data_array: dataArray,
    };
    try {
      await this.ctx.database.db.transaction().execute(async (trx) => {
        await new EventAuxDataRepository(trx).insert(row);
        await recordChange(trx, caller, {
          action: 'create',
          record_type: 'event_aux_data',
          record_id: row.id,
          new_value: toWireAux(row),
        });
      });
    } catch (err) {
      // A concurrent POST for the same event and source (or id) won the race: replace its data.
      const winner = (await repo.findByEventAndSource(row.event_id, row.data_source)) ?? (await repo.findById(row.id));
      if (!winner) throw err;
      if (winner.event_id !== row.event_id || winner.data_source !== row.data_source) throw pairTaken();
      return replace(winner, { data_array: dataArray });
    }
    if (live) this.ctx.bus.publish('newEventAuxData', toWireAux(row));
    return { insertedId: row.id };
  }

  async update(caller: AuthContext, id: string, body: UpdateEventAuxData, access: EventAccess): Promise<void> {
    const repo = this.repo;
    const existing = await this.visibleRecord(id, access);
    if (!existing) throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
    if (body.event_id !== undefined && !(await this.visibleEvent(body.event_id, access))) throw eventNotFound();
    const eventId = body.event_id ?? existing.event_id;
    await this.assertMayChange(caller, [existing.event_id, eventId], {});
    const dataSource = body.data_source ?? existing.data_source;
    if (eventId !== existing.event_id || dataSource !== existing.data_source) {
      const holder = await repo.findByEventAndSource(eventId, dataSource);
      if (holder && holder.id !== id) throw pairTaken();
    }
    const dataArray =
      body.data_array === undefined
        ? existing.data_array
        : JSON.stringify(mergeAuxDataArrays(parseJson<AuxDataItem[]>(existing.data_array, []), body.data_array));
    const updated: AuxRow = { id, event_id: eventId, data_source: dataSource, data_array: dataArray };
    const changed =
      updated.event_id !== existing.event_id ||
      updated.data_source !== existing.data_source ||
      updated.data_array !== existing.data_array;
    if (!changed) return; // Nothing to store or announce (this also ends echo loops between mirrored servers).
    try {
      await this.ctx.database.db.transaction().execute(async (trx) => {
        await new EventAuxDataRepository(trx).update(id, {
          event_id: eventId,
          data_source: dataSource,
          data_array: dataArray,
        });
        await recordChange(trx, caller, {
          action: 'update',
          record_type: 'event_aux_data',
          record_id: id,
          old_value: toWireAux(existing),
          new_value: toWireAux(updated),
        });
      });
    } catch (err) {
      if (await repo.findByEventAndSource(eventId, dataSource)) throw pairTaken();
      throw err;
    }
    this.ctx.bus.publish('updateEventAuxData', toWireAux(updated));
  }

  async remove(caller: AuthContext, id: string, access: EventAccess, opts: WriteOptions = {}): Promise<void> {
    const visible = await this.visibleRecord(id, access);
    if (!visible) throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
    await this.assertMayChange(caller, [visible.event_id], opts);
    const existing = await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = new EventAuxDataRepository(trx);
      const found = await repo.findById(id);
      if (!found) throw new AppError('NOT_FOUND', `No record found for id: ${id}`);
      await repo.delete(id);
      await recordChange(trx, caller, {
        action: 'delete',
        record_type: 'event_aux_data',
        record_id: id,
        old_value: toWireAux(found),
      });
      return found;
    });
    // An attachments record's pictures stay: the Sealog 2.4 clients rewrite the record by deleting
    // and re-posting it. They go with their event, or one by one through the attachment routes
    // (docs/sealog-clients.md#event-attachments).
    this.ctx.bus.publish('deleteEventAuxData', toWireAux(existing));
  }
}
