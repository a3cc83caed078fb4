import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { ChannelBus } from '../../realtime/bus.js';
import { archiveRecords } from './access.repository.js';
import { ArchiveView, restrictedWindows, type ArchiveRecord } from './archive.js';
import type { OriginWindow } from './event-access.js';

/**
 * The archive state of every cruise and lowering, kept for a moment (docs/public-archive.md#how-fast).
 * Each request of an archive reader, each publication to one and each event request of a caller
 * who is not an admin (the access lists' windows: event-access.ts) needs it, and reading it is a
 * pass over every cruise and lowering: with a fleet's 2,000 dives that was 6 ms of CPU per
 * anonymous request, 80 times an admin's. Kept here:
 *
 * - the records, for `archiveCacheLifetimeMs` at most, dropped as soon as a statement of this
 *   process writes cruises or lowerings (db/table-writes.ts: any module, inside a transaction or
 *   not) or the bus brings a change of a cruise or lowering from another process;
 *   a read that began within the lifetime of a change is not kept (it may have seen the rows
 *   before the change's commit), so the lifetime bounds how long a change made elsewhere (the
 *   command line, by hand, a message lost with the bus connection) can go unseen;
 * - the view of each reader (the visitor, or an access-list member), as long as its records are
 *   kept and the clock stays between the same two embargo dates, so an embargo still opens at its
 *   moment, by the request's clock.
 *
 * Only a database followed by `followArchiveChanges` (every app's: modules/index.ts) is cached: any
 * other reads every time.
 */
export const archiveCacheLifetimeMs = 1000;
/** Readers whose views (and, apart, whose access lists' windows) are kept at once. */
const maxReaders = 1000;
/**
 * The tables whose writes drop the archive state. It is also read from `sync_origins` (a copied
 * record's ship), but a record's origin is only ever written in the transaction that writes the
 * record itself (modules/sync/sync-apply.ts), while the events and aux data a followed ship sends
 * write their own origins there all day: watching that table would keep a fleet shore from keeping
 * anything.
 */
const archiveTables = ['cruises', 'lowerings'];

interface Kept {
  records: readonly ArchiveRecord[];
  at: number;
  /** Every embargo date of the records, ascending: a view holds between two neighbours. */
  embargoes: number[];
  views: Map<string | null, { view: ArchiveView; from: number; until: number }>;
  /** The access lists' windows by caller (`restrictedWindows`), keyed by the access-control setting and user. */
  windows: Map<string, readonly OriginWindow[]>;
}

/** Keeps at most `maxReaders` entries, the oldest going first. */
function keep<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (!map.has(key) && map.size >= maxReaders) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

class ArchiveCache {
  private kept: Kept | null = null;
  private reading: { generation: number; records: Promise<readonly ArchiveRecord[]> } | null = null;
  private generation = 0;
  private changedAt = -Infinity;

  constructor(private readonly db: Kysely<DB>) {}

  changed(): void {
    this.generation++;
    this.kept = null;
    this.reading = null;
    this.changedAt = Date.now();
  }

  async records(): Promise<readonly ArchiveRecord[]> {
    const kept = this.kept;
    if (kept && Date.now() - kept.at <= archiveCacheLifetimeMs) return kept.records;
    // Requests arriving together share one read, unless a change came after it began.
    if (this.reading?.generation === this.generation) return this.reading.records;
    const generation = this.generation;
    const startedAt = Date.now();
    const records = archiveRecords(this.db);
    const reading = { generation, records };
    this.reading = reading;
    try {
      const read = await records;
      if (this.generation === generation && startedAt - this.changedAt >= archiveCacheLifetimeMs)
        this.kept = {
          records: read,
          at: startedAt,
          embargoes: embargoDates(read),
          views: new Map(),
          windows: new Map(),
        };
      return read;
    } finally {
      if (this.reading === reading) this.reading = null;
    }
  }

  /** A reader's view at `now` of records this cache answered: the kept one while it holds. */
  viewOf(records: readonly ArchiveRecord[], now: number, member: string | null): ArchiveView {
    const kept = this.kept;
    if (kept?.records !== records) return ArchiveView.of(records, now, member);
    const held = kept.views.get(member);
    if (held && held.from <= now && now < held.until) return held.view;
    return keep(kept.views, member, { view: ArchiveView.of(records, now, member), ...between(kept.embargoes, now) })
      .view;
  }

  /** The access lists' windows of a caller in records this cache answered: kept with them. */
  windowsOf(
    records: readonly ArchiveRecord[],
    useAccessControl: boolean,
    member: string | null,
  ): readonly OriginWindow[] {
    const kept = this.kept;
    if (kept?.records !== records) return restrictedWindows(records, useAccessControl, member);
    const key = `${useAccessControl ? 'on' : 'off'}:${member ?? ''}`;
    return kept.windows.get(key) ?? keep(kept.windows, key, restrictedWindows(records, useAccessControl, member));
  }
}

/** The distinct embargo dates of the records, ascending. */
function embargoDates(records: readonly ArchiveRecord[]): number[] {
  const dates = new Set<number>();
  for (const r of records) if (r.embargoUntil !== null) dates.add(r.embargoUntil);
  return [...dates].sort((a, b) => a - b);
}

/**
 * The span of clock times around `now` in which every embargo compares to the clock as it does at
 * `now` (an embargo is in force while now < its date): from the latest date at or before now to the
 * first one after it.
 */
function between(dates: readonly number[], now: number): { from: number; until: number } {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dates[mid]! <= now) lo = mid + 1;
    else hi = mid;
  }
  return { from: lo > 0 ? dates[lo - 1]! : -Infinity, until: lo < dates.length ? dates[lo]! : Infinity };
}

const caches = new WeakMap<object, ArchiveCache>();

/**
 * The archive views of every reader at `now`, from one read of the records (kept when this database
 * is followed; otherwise each reader's view is made once per call): `member` is the user id of a
 * signed-in reader on access lists, null for the visitor and device keys.
 */
export async function archiveViewsAt(db: Kysely<DB>, now: number): Promise<(member: string | null) => ArchiveView> {
  const cache = caches.get(db);
  if (cache) {
    const records = await cache.records();
    return (member) => cache.viewOf(records, now, member);
  }
  const records = await archiveRecords(db);
  const views = new Map<string | null, ArchiveView>();
  return (member) => views.get(member) ?? keep(views, member, ArchiveView.of(records, now, member));
}

/** A reader's archive view at `now` (`ArchiveView.of`): kept when this database is followed. */
export async function archiveViewOf(db: Kysely<DB>, now: number, member: string | null): Promise<ArchiveView> {
  return (await archiveViewsAt(db, now))(member);
}

/** The windows a caller's access lists shut them out of (`restrictedWindows`): kept when this database is followed. */
export async function restrictedWindowsOf(
  db: Kysely<DB>,
  useAccessControl: boolean,
  member: string | null,
): Promise<readonly OriginWindow[]> {
  const cache = caches.get(db);
  if (!cache) return restrictedWindows(await archiveRecords(db), useAccessControl, member);
  return cache.windowsOf(await cache.records(), useAccessControl, member);
}

/**
 * Keeps this database's archive state (above) and drops it on every change: this process's writes
 * to the archive's tables and the bus's news of cruises and lowerings changed by another process.
 * Returns the unsubscribe.
 */
export function followArchiveChanges(database: Database, bus: ChannelBus): () => void {
  const cache = new ArchiveCache(database.db);
  caches.set(database.db, cache);
  const changed = () => cache.changed();
  const offWrites = database.tableWrites.on((tables) => {
    if (tables === 'unknown' || archiveTables.some((t) => tables.has(t))) changed();
  });
  const offBus = (['newCruises', 'updateCruises', 'newLowerings', 'updateLowerings'] as const).map((channel) =>
    bus.subscribe(channel, changed),
  );
  return () => {
    offWrites();
    for (const off of offBus) off();
    if (caches.get(database.db) === cache) caches.delete(database.db);
  };
}
