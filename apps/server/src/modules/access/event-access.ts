import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { followsShips } from '../../origins/record-origins.js';
import { AppError } from '../../lib/app-error.js';
import type { ArchiveView, AuthContext } from '../../plugins/auth.js';
import { restrictedWindowsOf } from './archive-cache.js';
import { canOpenRecord, viewerOf, type AccessFields } from './access.rules.js';

/**
 * Which events a caller may see (docs/security.md, "Event access"). Events belong to cruises and
 * lowerings by time alone: an event lies in every cruise and lowering whose [start_ts, stop_ts]
 * holds its ts. A caller sees an event only when they may open every such record (`canOpenRecord`:
 * admins always; without access control everyone; with it, members of a non-empty access list).
 * So the events a caller may not see are exactly those inside the window of a record they may not
 * open; events outside every restricted record stay visible. Aux data, attachments and frame grabs
 * follow their event.
 *
 * Lists apply this in SQL as ts-range exclusions (`excludedTs`), one per restricted window, merged;
 * single records are checked with `maySee`. Admins get no exclusion at all; without access control
 * nor archive, others are excluded only from copies of a ship's restricted records
 * (docs/public-archive.md#records-from-a-ship).
 */
export interface TsWindow {
  lo: number;
  hi: number;
}

/** Sorts and merges overlapping or touching windows. */
export function mergeWindows(windows: readonly TsWindow[]): TsWindow[] {
  const sorted = [...windows].filter((w) => w.lo <= w.hi).sort((a, b) => a.lo - b.lo || a.hi - b.hi);
  const out: TsWindow[] = [];
  for (const w of sorted) {
    const last = out.at(-1);
    if (last && w.lo <= last.hi + 1) last.hi = Math.max(last.hi, w.hi);
    else out.push({ ...w });
  }
  return out;
}

/**
 * A window hiding only the events of one origin: a ship's (its id in sync_origins) or, null, this
 * server's own. A record's archive state applies to the events of its own origin only
 * (docs/public-archive.md#records-from-a-ship).
 */
export interface OriginWindow extends TsWindow {
  origin: string | null;
}

export class EventAccess {
  private constructor(
    /**
     * The caller's hidden ts windows, merged and sorted, counting every origin window as hiding
     * all events: what a check that does not know an event's origin must apply. Empty: the caller
     * sees every event.
     */
    readonly excluded: readonly TsWindow[],
    /**
     * Where the caller may not log or move an event: the access-list windows. An archive reader
     * sees less than it may write (a ship's device key logs into a dive the archive has not
     * published), so its reads and writes differ; for every other caller they are the same.
     */
    private readonly unwritable: readonly TsWindow[] = excluded,
    /** The windows hiding events of every origin (a subset of `excluded`), merged. */
    readonly shared: readonly TsWindow[] = excluded,
    /** The windows hiding the events of one origin only. */
    readonly scoped: readonly OriginWindow[] = [],
    /** Made by `ofOrigins`: checks look an event's origin up. */
    private readonly byOrigin = false,
  ) {}

  /** A caller that sees every event (admins, the server itself, access control off). */
  static readonly everything = new EventAccess([]);

  static of(windows: readonly TsWindow[], unwritable?: readonly TsWindow[]): EventAccess {
    if (unwritable !== undefined) return new EventAccess(mergeWindows(windows), mergeWindows(unwritable));
    return windows.length === 0 ? EventAccess.everything : new EventAccess(mergeWindows(windows));
  }

  /**
   * A caller on a fleet shore: `scoped` windows hide one origin's events only; `excluded` (for
   * checks that know no origin) stays `conservative`.
   */
  static ofOrigins(
    conservative: readonly TsWindow[],
    shared: readonly TsWindow[],
    scoped: readonly OriginWindow[],
    unwritable: readonly TsWindow[],
  ): EventAccess {
    return new EventAccess(
      mergeWindows(conservative),
      mergeWindows(unwritable),
      mergeWindows(shared),
      [...scoped],
      true,
    );
  }

  /** An archive reader's reads, judged by origin (`byOrigin`, a fleet shore) or by time alone. */
  static ofArchive(archive: ArchiveView, byOrigin: boolean): EventAccess {
    if (!byOrigin) return EventAccess.of(archive.hiddenWindows());
    const { shared, scoped } = archive.hiddenByOrigin();
    return EventAccess.ofOrigins(archive.hiddenWindows(), shared, scoped, []);
  }

  /** The access of a caller: the windows of every cruise and lowering they may not open. */
  static async for(ctx: AppContext, caller: AuthContext | null): Promise<EventAccess> {
    const lists = await accessListWindows(ctx, caller);
    // A server following no ship holds only its own events: time alone decides, as fast as ever.
    const byOrigin = (lists.length > 0 || caller?.archive) && (await followsShips(ctx));
    // An archive reader (the anonymous visitor, and with the archive on every caller neither admin
    // nor granted by role) sees only the events of records open to it (archive.ts), whatever the
    // access-control setting; it writes under the access lists as before.
    if (caller?.archive) {
      const reads = EventAccess.ofArchive(caller.archive, !!byOrigin);
      return new EventAccess(reads.excluded, mergeWindows(lists), reads.shared, reads.scoped, reads.byOrigin);
    }
    if (!byOrigin) return EventAccess.of(lists);
    // A record's access list shuts the caller out of its own origin's events only.
    return EventAccess.ofOrigins(lists, [], lists, lists);
  }

  get seesEverything(): boolean {
    return this.excluded.length === 0 && this.shared.length === 0 && this.scoped.length === 0;
  }

  /**
   * Whether the caller may see an event at `ts` of `origin` (a ship's id, null: this server's
   * own); without an origin, as if every origin window hid it.
   */
  maySee(ts: number, origin?: string | null): boolean {
    if (origin !== undefined) {
      const hit = (w: TsWindow) => ts >= w.lo && ts <= w.hi;
      return !this.shared.some(hit) && !this.scoped.some((w) => w.origin === origin && hit(w));
    }
    for (const w of this.excluded) {
      if (ts < w.lo) return true;
      if (ts <= w.hi) return false;
    }
    return true;
  }

  /**
   * Whether the caller may see this event, judged by its origin on a fleet shore (one primary-key
   * lookup in sync_origins), by its time alone elsewhere.
   */
  async maySeeEvent(db: Kysely<DB>, event: { id: string; ts: number | string }): Promise<boolean> {
    const ts = Number(event.ts);
    if (!this.byOrigin) return this.maySee(ts);
    return this.maySee(ts, await eventOrigin(db, event.id));
  }

  /**
   * The hidden windows overlapping [lo, hi]; `byOrigin`: only those hiding every origin's events
   * (the query then applies `scopedWithin` with each event's origin).
   */
  within(lo: number, hi: number, byOrigin = false): TsWindow[] {
    return (byOrigin ? this.shared : this.excluded).filter((w) => w.hi >= lo && w.lo <= hi);
  }

  /** The origin windows overlapping [lo, hi]. */
  scopedWithin(lo: number, hi: number): OriginWindow[] {
    return this.scoped.filter((w) => w.hi >= lo && w.lo <= hi);
  }

  /**
   * [lo, hi] with hidden windows covering its ends cut off (so index ranges start and stop at
   * visible events); lo > hi when the whole range is hidden. `byOrigin`: as `within`.
   */
  narrow(lo: number, hi: number, byOrigin = false): TsWindow {
    const windows = byOrigin ? this.shared : this.excluded;
    let from = lo;
    let to = hi;
    for (const w of windows) if (w.lo <= from && w.hi >= from) from = w.hi + 1;
    for (const w of [...windows].reverse()) if (w.lo <= to && w.hi >= to) to = w.lo - 1;
    return { lo: from, hi: to };
  }

  /** Refuses a new or moved event whose ts lies in a record the caller may not write in. */
  assertMayWriteAt(ts: number): void {
    if (this.unwritable.some((w) => ts >= w.lo && ts <= w.hi)) {
      throw new AppError('FORBIDDEN', 'The event time lies within a cruise or lowering you may not open');
    }
  }
}

/** The ship an event was copied from (its sync_origins row); null: this server's own. */
export async function eventOrigin(db: Kysely<DB>, id: string): Promise<string | null> {
  const row = await db
    .selectFrom('sync_origins')
    .select('ship_id')
    .where('record_type', '=', 'event')
    .where('record_id', '=', id)
    .executeTakeFirst();
  return row?.ship_id ?? null;
}

/** The windows of every cruise and lowering whose access list shuts the caller out, with their origin. */
async function accessListWindows(ctx: AppContext, caller: AuthContext | null): Promise<readonly OriginWindow[]> {
  if (caller?.isAdmin) return [];
  // Kept with the records between requests (archive-cache.ts), not a pass over both tables per request.
  return restrictedWindowsOf(ctx.database.db, ctx.config.useAccessControl, caller ? caller.user.id : null);
}

/**
 * The SQL condition keeping `ts` (a column expression) out of the given windows, or null when
 * there are none. Each window is `(ts < lo OR ts > hi)`, which both engines answer from the ts index.
 */
export function excludedTs(ts: RawBuilder<unknown>, windows: readonly TsWindow[]): RawBuilder<boolean> | null {
  if (windows.length === 0) return null;
  const parts = windows.map((w) => sql<boolean>`(${ts} < ${w.lo} OR ${ts} > ${w.hi})`);
  return sql<boolean>`(${sql.join(parts, sql` AND `)})`;
}

/**
 * The SQL condition keeping events (id and ts column expressions) out of origin windows, or null
 * when there are none: an event is hidden when its ts lies in a window of its own origin (its
 * sync_origins row, found by primary key; none: this server's own).
 */
export function excludedByOrigin(
  id: RawBuilder<unknown>,
  ts: RawBuilder<unknown>,
  windows: readonly OriginWindow[],
): RawBuilder<boolean> | null {
  if (windows.length === 0) return null;
  const parts = windows.map((w) => {
    const row = sql`SELECT 1 FROM sync_origins so WHERE so.record_type = 'event' AND so.record_id = ${id}`;
    const same = w.origin === null ? sql`NOT EXISTS (${row})` : sql`EXISTS (${row} AND so.ship_id = ${w.origin})`;
    return sql<boolean>`NOT (${ts} >= ${w.lo} AND ${ts} <= ${w.hi} AND ${same})`;
  });
  return sql<boolean>`(${sql.join(parts, sql` AND `)})`;
}

/** The windows hiding events from a caller: every origin's (`shared`) and one origin's (`scoped`). */
export interface EventHiding {
  readonly shared: readonly TsWindow[];
  readonly scoped: readonly OriginWindow[];
}

/**
 * The SQL condition keeping the events (id and ts column expressions) a caller may not see out,
 * judged by origin on a fleet shore, or null when it sees every event. A server following no ship
 * has no scoped windows, so this is `excludedTs` alone there.
 */
export function visibleEvents(
  id: RawBuilder<unknown>,
  ts: RawBuilder<unknown>,
  hiding: EventHiding,
): RawBuilder<boolean> | null {
  const parts = [excludedTs(ts, hiding.shared), excludedByOrigin(id, ts, hiding.scoped)].filter((p) => p !== null);
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : sql<boolean>`(${sql.join(parts, sql` AND `)})`;
}

/** Whether the caller may see every record of these (the event-holding windows of one ts). */
export function mayOpenAll(caller: AuthContext, records: readonly AccessFields[], useAccessControl: boolean): boolean {
  const viewer = viewerOf(caller);
  return records.every((r) => canOpenRecord(viewer, r, useAccessControl));
}

/**
 * How a route stands to event data, declared in its `config.access` (the route table test checks
 * every event, aux-data, export, GIS, track and file route declares one):
 *
 * - `events`: reads or changes events or aux data; the request gets the caller's `EventAccess`
 *   (read it with `eventAccess(request)`), which every event query of the services requires.
 * - `image`: an image file; with access control a token is needed and the image must belong to an
 *   event the caller may see (files routes).
 * - `record`: a cruise's or lowering's own files, under the rule for opening the record by id.
 * - `admin`: admins only (who see every event).
 *
 * A read route may also admit the anonymous archive visitor (`config.archive`, plugins/auth.ts):
 * it then reads under the archive rule (archive.ts) through the same checks.
 */
export type RouteAccess = 'events' | 'image' | 'record' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How the route stands to event data (modules/access/event-access.ts). */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    eventAccess: EventAccess | null;
  }
}

/**
 * Adds the one hook that reads the caller's event access to every route declaring `access:
 * 'events'` or `'image'` (after authentication). Call before any route is registered.
 */
export function registerEventAccess(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('eventAccess', null);
  app.addHook('onRoute', (route) => {
    const access = (route.config as FastifyContextConfig | undefined)?.access;
    if (access !== 'events' && access !== 'image' && access !== 'admin') return;
    const hook: preHandlerHookHandler = (request, _reply, done) => {
      EventAccess.for(ctx, request.auth).then((a) => {
        request.eventAccess = a;
        done();
      }, done);
    };
    if (Array.isArray(route.preHandler)) route.preHandler = [hook, ...route.preHandler];
    else route.preHandler = route.preHandler ? [hook, route.preHandler] : [hook];
  });
}

/** The caller's event access on a route that declares it; a route that does not is a server bug. */
export function eventAccess(request: FastifyRequest): EventAccess {
  if (!request.eventAccess) throw new Error(`${request.method} ${request.url}: route declares no event access`);
  return request.eventAccess;
}
