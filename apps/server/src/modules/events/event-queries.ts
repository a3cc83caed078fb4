import { setImmediate } from 'node:timers/promises';
import type { AppContext } from '../../context.js';
import { isObjectId } from '@bathylog/shared';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import { shipRestriction } from '../access/access.repository.js';
import { canOpenRecord, viewerOf } from '../access/access.rules.js';
import type { EventAccess } from '../access/event-access.js';
import { EventAuxDataRepository, type AuxRow } from '../event-aux-data/event-aux-data.repository.js';
import { recordOrigins } from '../../origins/record-origins.js';
import { diveCompletenessRules, loweringCompletenessSettings } from '../completeness/completeness-settings.js';
import { buildEventFilter, globalWindow, type EventFilter, type FilterQuery, type TimeWindow } from './event-filter.js';
import type { ChunkSource, EventItem } from './event-output.js';
import { EventSearch, type EventRow, type ResolvedFilter, type SortOrder } from './event-search.js';
import { RecordIds, RecordWindowsRepository, type RecordKind, type RecordWindow } from './record-windows.repository.js';

/** A limit up to this is served by one index-driven query; larger or no limit streams in keyset chunks. */
export const pageMax = 1000;
const chunkSize = 1000;

/** Where a keyset walk over (ts, id) stands: after this row. */
export interface Keyset {
  ts: number;
  id: string;
}

/**
 * A keyset walk in chunks of `size`: `read` gets the position after the previous chunk's last
 * row, the rows to skip (the page's offset, on the first chunk only) and how many to take; it
 * answers what to yield, how many rows it read and the last one. Stops at the page's limit or
 * at a short chunk. Between chunks the event loop runs once (other requests are answered).
 *
 * `prefetch` (exports, which only read): the next chunk's read starts as soon as the previous one
 * returned, so the database works on it while the consumer writes the previous chunk out (on
 * PostgreSQL another process: the two overlap). At most one read is ahead; a read that fails
 * ahead fails the walk when it is reached, and one left behind by a consumer that stopped is
 * dropped without an unhandled rejection.
 */
export function keysetWalk<T>(
  page: { offset: number; limit: number | undefined },
  size: number,
  read: (after: Keyset | undefined, skip: number, take: number) => Promise<{ out: T[]; n: number; last?: Keyset }>,
  { prefetch = false }: { prefetch?: boolean } = {},
): ChunkSource<T> {
  return async function* () {
    let remaining = page.limit ?? Number.POSITIVE_INFINITY;
    if (remaining <= 0) return;
    let take = Math.min(size, remaining);
    let next: () => ReturnType<typeof read> = () => read(undefined, page.offset, take);
    let ahead: ReturnType<typeof read> | null = null;
    for (;;) {
      const chunk = await (ahead ?? next());
      remaining -= chunk.n;
      const last = chunk.last;
      const more = chunk.n === take && last !== undefined && remaining > 0;
      ahead = null;
      if (more) {
        take = Math.min(size, remaining);
        next = () => read(last, 0, take);
        if (prefetch) {
          ahead = next();
          ahead.catch(() => {}); // reached below, or dropped when the consumer stops
        }
      }
      if (chunk.n > 0 && chunk.out.length > 0) yield chunk.out;
      if (!more) return;
      // Let the event loop serve other requests between chunks: a SQLite read and a socket that
      // takes every write would otherwise run the whole walk without once returning to it.
      await setImmediate();
    }
  };
}

const notAuthorized = (kind: RecordKind) =>
  new AppError('UNAUTHORIZED', `User not authorized to retrieve this ${kind}`);

/** Which events a list route covers: all of them (1970..now) or one cruise's or lowering's window. */
export type EventScope = { kind: 'all' } | { kind: RecordKind; id: string };

/** The reading side shared by the events, event_exports and event_aux_data routes. */
export class EventQueries {
  constructor(private readonly ctx: AppContext) {}

  get search(): EventSearch {
    return new EventSearch(this.ctx.database.db, this.ctx.database.dialect);
  }

  /** The record a bycruise/bylowering route reads, or the route's own not-found error. */
  async record(caller: AuthContext, kind: RecordKind, id: string, notFound: AppError): Promise<RecordWindow> {
    const record = await new RecordWindowsRepository(this.ctx.database.db).find(kind, id);
    if (!record) throw notFound;
    if (!(await this.mayOpen(caller, kind, record))) throw notAuthorized(kind);
    return record;
  }

  /**
   * The record a route names by its database id or, as the WHOI map does, by its human id
   * (`S0492`): then the earliest of that name the caller may open, as `lowerings/byloweringid`
   * answers (docs/sealog-clients.md#whoi-client-routes).
   */
  async recordByIdOrName(
    caller: AuthContext,
    kind: RecordKind,
    idOrName: string,
    notFound: AppError,
  ): Promise<RecordWindow> {
    const repo = new RecordWindowsRepository(this.ctx.database.db);
    const id = idOrName.toLowerCase();
    if (isObjectId(idOrName) && (await repo.find(kind, id))) return this.record(caller, kind, id, notFound);
    const named = await repo.findByHumanId(kind, idOrName);
    if (named.length === 0) throw notFound;
    for (const record of named) if (await this.mayOpen(caller, kind, record)) return record;
    throw notAuthorized(kind);
  }

  /**
   * Reading a record's events follows the rule for opening the record by id (modules/access):
   * admins always; without access control every reader; with it, members of a non-empty list.
   */
  /**
   * Reading a record's events follows the rule for opening the record by id (modules/access):
   * admins always; without access control every reader; with it, members of a non-empty list; a
   * restricted copy from a ship, shore admins only.
   */
  private async mayOpen(caller: AuthContext, kind: RecordKind, record: RecordWindow): Promise<boolean> {
    const fields = await shipRestriction(this.ctx.database.db, kind, record.id, {
      ...record,
      ref: { kind, id: record.id },
    });
    return canOpenRecord(viewerOf(caller), fields, this.ctx.config.useAccessControl);
  }

  async window(caller: AuthContext, scope: EventScope, notFound: AppError): Promise<TimeWindow> {
    if (scope.kind === 'all') return globalWindow();
    const record = await this.record(caller, scope.kind, scope.id, notFound);
    return { lo: record.start_ts, hi: record.stop_ts };
  }

  /**
   * The filter of a list, less the events the caller may not see (`access`, from the route).
   * `loweringId`: the lowering a bylowering list reads, whose own required aux sources (if any)
   * judge `completeness=incomplete`.
   */
  async resolve(
    query: FilterQuery,
    window: TimeWindow,
    datasourceMatch: 'substring' | 'exact',
    access: EventAccess,
    loweringId?: string,
  ): Promise<ResolvedFilter> {
    const filter = buildEventFilter(query, window, datasourceMatch, access);
    await this.addCompleteness(filter, query, loweringId);
    return this.search.resolve(filter);
  }

  /**
   * Sets the filter's `incomplete` condition when the query asks for `completeness=incomplete`: a
   * lowering's list by its settings, any other list by the dives holding its events.
   */
  async addCompleteness(filter: EventFilter, query: FilterQuery, loweringId?: string): Promise<void> {
    if (query.completeness !== 'incomplete') return;
    const rules = loweringId
      ? [{ settings: await loweringCompletenessSettings(this.ctx, loweringId), windows: null }]
      : await diveCompletenessRules(this.ctx, filter.lo, filter.hi);
    filter.incomplete = { rules, now: this.ctx.now() };
  }

  /** The matching events as chunks (see `eventChunks`). */
  rows(
    resolved: ResolvedFilter,
    opts: { order: SortOrder; offset?: number | undefined; limit?: number | undefined },
  ): ChunkSource<EventRow> {
    return eventChunks(this.search, resolved, opts);
  }

  async recordIds(wanted: boolean | undefined): Promise<RecordIds | null> {
    return wanted ? RecordIds.load(this.ctx.database.db) : null;
  }

  /** Rows → items with their record ids (when asked) and, for exports, all their aux records. */
  items(
    source: ChunkSource<EventRow>,
    opts: { aux: boolean; ids: RecordIds | null; origins?: boolean },
  ): ChunkSource<EventItem> {
    const ctx = this.ctx;
    const auxRepo = new EventAuxDataRepository(ctx.database.db);
    return async function* () {
      for await (const rows of source()) {
        const ids = rows.map((r) => r.id);
        const byEvent = opts.aux ? groupByEvent(await auxRepo.listByEventIds(ids)) : null;
        const origins = opts.origins ? await recordOrigins(ctx, 'event', ids) : null;
        yield rows.map((row) => ({
          row,
          ...(byEvent ? { aux: byEvent.get(row.id) ?? [] } : {}),
          ids: opts.ids?.for(row.ts) ?? {},
          ...(origins?.has(row.id) ? { origin: origins.get(row.id) } : {}),
        }));
      }
    };
  }
}

/**
 * The events matching a filter, as chunks. A small limit is one index-driven page (cached, so a
 * second read for CSV costs nothing); otherwise keyset chunks over the ts index, re-read per pass.
 */
export function eventChunks(
  search: EventSearch,
  resolved: ResolvedFilter,
  opts: { order: SortOrder; offset?: number | undefined; limit?: number | undefined },
): ChunkSource<EventRow> {
  const offset = opts.offset ?? 0;
  const limit = opts.limit;
  if (limit !== undefined && limit <= pageMax) {
    let cached: Promise<EventRow[]> | null = null;
    return async function* () {
      cached ??= search.page(resolved, { order: opts.order, offset, limit });
      const rows = await cached;
      if (rows.length > 0) yield rows;
    };
  }
  const check = search.rowCheck(resolved);
  if (check) {
    // Rows are checked here, so offset and limit count checked rows; the cursor follows raw rows.
    return async function* () {
      let after: { ts: number; id: string } | undefined;
      let skip = offset;
      let remaining = limit ?? Number.POSITIVE_INFINITY;
      for (;;) {
        const raw = await search.chunk(resolved, {
          order: opts.order,
          after,
          offset: 0,
          limit: chunkSize,
          withoutRowCheck: true,
        });
        if (raw.length === 0) return;
        let rows = raw.filter(check);
        if (skip > 0) {
          const dropped = Math.min(skip, rows.length);
          rows = rows.slice(dropped);
          skip -= dropped;
        }
        if (rows.length > remaining) rows = rows.slice(0, remaining);
        remaining -= rows.length;
        if (rows.length > 0) yield rows;
        if (remaining <= 0 || raw.length < chunkSize) return;
        const last = raw[raw.length - 1]!;
        after = { ts: last.ts, id: last.id };
      }
    };
  }
  return keysetWalk({ offset, limit }, chunkSize, async (after, skip, take) => {
    const rows = await search.chunk(resolved, { order: opts.order, after, offset: skip, limit: take });
    return { out: rows, n: rows.length, ...(rows.length ? { last: rows[rows.length - 1]! } : {}) };
  });
}

export function groupByEvent(rows: readonly AuxRow[]): Map<string, AuxRow[]> {
  const out = new Map<string, AuxRow[]>();
  for (const row of rows) {
    const list = out.get(row.event_id);
    if (list) list.push(row);
    else out.set(row.event_id, [row]);
  }
  return out;
}
