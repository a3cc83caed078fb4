import type { RecordKind } from './access.repository.js';
import { mergeWindows, type OriginWindow, type TsWindow } from './event-access.js';

/**
 * The public archive's readers (docs/public-archive.md#who-reads-the-archive). With the archive on,
 * a request without a token on a route that admits the visitor (`config.archive`) reads as the
 * anonymous visitor, and so does every signed-in caller that is neither an admin nor granted by
 * role (the guest, self-registered users, device keys): plugins/auth.ts decides. What they see
 * follows from each record's archive setting, read at request time against the server clock
 * (`AppContext.now`), so an embargo opens by itself, and from the record's access list, which
 * opens it to the users it names:
 *
 * - closed: not public, or hidden, or copied from a ship with an access list. Not listed; opening
 *   it, its files or its events is refused.
 * - stub: public but embargoed (now < embargo end). Listed and opened as a stub (id, name, dates
 *   and the date it opens); nothing of its files or events.
 * - open: public, embargo passed or none. Read like any reader does, without access lists.
 *
 * A lowering's setting is its own when it sets one (`lowering_public` not null), otherwise its
 * cruise's (the latest-starting cruise whose window holds it; none, or a hidden one: closed).
 */
export type ArchiveState = 'closed' | 'stub' | 'open';

/** A cruise or lowering as the archive rule reads it (times epoch ms). */
export interface ArchiveRecord {
  kind: RecordKind;
  id: string;
  start: number;
  stop: number;
  hidden: boolean;
  /** A lowering's null: inherits its cruise's setting. */
  isPublic: boolean | null;
  embargoUntil: number | null;
  /** The user ids of its access list. */
  accessList: readonly string[];
  /** Copied from a followed ship (a row in sync_origins): its access list names the ship's users. */
  copied: boolean;
  /** The ship it was copied from (its id in sync_origins); null or absent: made on this server. */
  origin?: string | null;
}

/** The setting in force for a record. */
export interface ArchiveSetting {
  isPublic: boolean;
  embargoUntil: number | null;
}

/** The cruise a lowering inherits from: the latest-starting one holding its whole window. */
function cruiseOf(lowering: ArchiveRecord, cruises: readonly ArchiveRecord[]): ArchiveRecord | undefined {
  let best: ArchiveRecord | undefined;
  for (const c of cruises) {
    if (c.start <= lowering.start && c.stop >= lowering.stop && (!best || c.start > best.start)) best = c;
  }
  return best;
}

/**
 * A copied record with an access list is restricted to this server's admins whatever its archive
 * setting: the ship's user ids mean nothing here (docs/public-archive.md#records-from-a-ship).
 */
function shipRestricted(record: ArchiveRecord): boolean {
  return record.copied && record.accessList.length > 0;
}

export function effectiveSetting(record: ArchiveRecord, cruises: readonly ArchiveRecord[]): ArchiveSetting {
  if (record.kind === 'cruise' || record.isPublic !== null) {
    return { isPublic: record.isPublic === true, embargoUntil: record.embargoUntil };
  }
  const cruise = cruiseOf(record, cruises);
  // A hidden or ship-restricted cruise closes every lowering that inherits from it, whenever that
  // lowering was made (hiding marks only the lowerings inside it at that moment).
  if (!cruise || cruise.hidden || shipRestricted(cruise)) return { isPublic: false, embargoUntil: null };
  return { isPublic: cruise.isPublic === true, embargoUntil: cruise.embargoUntil };
}

export function archiveState(hidden: boolean, setting: ArchiveSetting, now: number): ArchiveState {
  if (hidden || !setting.isPublic) return 'closed';
  return setting.embargoUntil !== null && now < setting.embargoUntil ? 'stub' : 'open';
}

/**
 * The record's state for a caller: a user on its access list (or, for a lowering that inherits,
 * on its cruise's) opens it whatever the archive says; everyone else gets the archive state.
 */
function stateFor(
  record: ArchiveRecord,
  setting: ArchiveSetting,
  cruise: ArchiveRecord | undefined,
  now: number,
  member: string | null,
): ArchiveState {
  if (shipRestricted(record)) return 'closed';
  if (member !== null) {
    if (record.accessList.includes(member)) return 'open';
    const inherits = record.kind === 'lowering' && record.isPublic === null;
    if (inherits && cruise && !shipRestricted(cruise) && cruise.accessList.includes(member)) return 'open';
  }
  return archiveState(record.hidden, setting, now);
}

/**
 * The windows of the records an access list shuts a caller out of (`canOpenRecord`), with their
 * origins: with access control on, a non-empty list without `member` (null: a caller on no list);
 * with it on or off, a copy of a ship's record whose list is non-empty, as the ship's user ids mean
 * nothing here (docs/public-archive.md#records-from-a-ship).
 */
export function restrictedWindows(
  records: readonly ArchiveRecord[],
  useAccessControl: boolean,
  member: string | null,
): OriginWindow[] {
  const windows: OriginWindow[] = [];
  for (const r of records) {
    if (r.accessList.length === 0) continue;
    const shutOut = r.copied || (useAccessControl && (member === null || !r.accessList.includes(member)));
    if (shutOut) windows.push({ lo: r.start, hi: r.stop, origin: r.origin ?? null });
  }
  return windows;
}

/** The lowest and highest times a window may name (JavaScript's date range). */
const farPast = -8.64e15;
const farFuture = 8.64e15;

/** `from` less every window of `cut`. */
export function subtractWindows(from: readonly TsWindow[], cut: readonly TsWindow[]): TsWindow[] {
  const cuts = mergeWindows(cut);
  const out: TsWindow[] = [];
  for (const w of mergeWindows(from)) {
    let lo = w.lo;
    for (const c of cuts) {
      if (c.hi < lo || c.lo > w.hi) continue;
      if (c.lo > lo) out.push({ lo, hi: c.lo - 1 });
      lo = c.hi + 1;
    }
    if (lo <= w.hi) out.push({ lo, hi: w.hi });
  }
  return out;
}

interface Entry {
  record: ArchiveRecord;
  setting: ArchiveSetting;
  state: ArchiveState;
}

/** Every record's archive state at one moment: what one anonymous request may read. */
export class ArchiveView {
  /** Worked out once per view: a view is kept between requests (archive-cache.ts) and never changes. */
  private byOrigin?: { shared: TsWindow[]; scoped: OriginWindow[] };
  private hidden?: TsWindow[];

  private constructor(private readonly entries: ReadonlyMap<string, Entry>) {}

  /**
   * `member`: the user id of a signed-in caller who reads the archive (their access lists open
   * records to them); null for the anonymous visitor and device keys, who are on no list.
   */
  static of(records: readonly ArchiveRecord[], now: number, member: string | null = null): ArchiveView {
    const cruises = records.filter((r) => r.kind === 'cruise');
    const entries = new Map<string, Entry>();
    for (const record of records) {
      const setting = effectiveSetting(record, cruises);
      const cruise = record.kind === 'lowering' ? cruiseOf(record, cruises) : undefined;
      const state = stateFor(record, setting, cruise, now, member);
      entries.set(`${record.kind}:${record.id}`, { record, setting, state });
    }
    return new ArchiveView(entries);
  }

  state(kind: RecordKind, id: string): ArchiveState {
    return this.entries.get(`${kind}:${id}`)?.state ?? 'closed';
  }

  /** The setting in force for a record (a lowering's inherited one included). */
  setting(kind: RecordKind, id: string): ArchiveSetting {
    return this.entries.get(`${kind}:${id}`)?.setting ?? { isPublic: false, embargoUntil: null };
  }

  /** The records of a kind the visitor sees listed: open ones and stubs. */
  listed(kind: RecordKind): string[] {
    return [...this.entries.values()]
      .filter((e) => e.record.kind === kind && e.state !== 'closed')
      .map((e) => e.record.id);
  }

  /** The windows of the open (or closed) records of a kind, of one origin when given. */
  private windows(kind: RecordKind, open: boolean, origin?: string | null): TsWindow[] {
    return [...this.entries.values()]
      .filter((e) => e.record.kind === kind && (e.state === 'open') === open)
      .filter((e) => origin === undefined || (e.record.origin ?? null) === origin)
      .map((e) => ({ lo: e.record.start, hi: e.record.stop }));
  }

  /**
   * The times whose events the visitor may not see, split by origin (for `EventAccess`): `shared`
   * hides every event, `scoped` only the events of one origin (a ship's, or null: this server's).
   * Records judge the events of their own origin only: an event inside any lowering of its origin
   * is seen when every such lowering is open; an event inside its origin's cruises only, when every
   * such cruise is open; an event outside its origin's records never. So on a fleet shore another
   * ship's public dive in the same week neither publishes a private cruise's events nor is hidden
   * by it (docs/public-archive.md#records-from-a-ship).
   */
  hiddenByOrigin(): { shared: TsWindow[]; scoped: OriginWindow[] } {
    this.byOrigin ??= this.workOutHiddenByOrigin();
    return this.byOrigin;
  }

  private workOutHiddenByOrigin(): { shared: TsWindow[]; scoped: OriginWindow[] } {
    const windows = this.windows.bind(this);
    const lowerings = [...windows('lowering', true), ...windows('lowering', false)];
    const everyRecord = [...windows('cruise', true), ...windows('cruise', false), ...lowerings];
    // This server's own events are judged even when it holds no record of its own.
    const origins = new Set([null, ...[...this.entries.values()].map((e) => e.record.origin ?? null)]);
    const scoped = [...origins].flatMap((origin) => {
      const own = (open: boolean) => [...windows('cruise', open, origin), ...windows('lowering', open, origin)];
      const ownLowerings = [...windows('lowering', true, origin), ...windows('lowering', false, origin)];
      return mergeWindows([
        // Another origin's records open none of this origin's events.
        ...subtractWindows(everyRecord, [...own(true), ...own(false)]),
        ...windows('lowering', false, origin),
        ...subtractWindows(windows('cruise', false, origin), ownLowerings),
      ]).map((w) => ({ ...w, origin }));
    });
    const shared = subtractWindows([{ lo: farPast, hi: farFuture }], everyRecord);
    return { shared, scoped };
  }

  /**
   * The hidden times for a check that does not know an event's origin, as the rule stood before
   * it judged by origin: a closed cruise's time is opened only by lowerings of its own origin, and
   * hides every origin's events there.
   */
  hiddenWindows(): TsWindow[] {
    this.hidden ??= this.workOutHiddenWindows();
    return this.hidden;
  }

  private workOutHiddenWindows(): TsWindow[] {
    const windows = this.windows.bind(this);
    const lowerings = [...windows('lowering', true), ...windows('lowering', false)];
    const everyRecord = [...windows('cruise', true), ...windows('cruise', false), ...lowerings];
    const origins = new Set([...this.entries.values()].map((e) => e.record.origin ?? null));
    const closedCruises = [...origins].flatMap((origin) =>
      subtractWindows(windows('cruise', false, origin), [
        ...windows('lowering', true, origin),
        ...windows('lowering', false, origin),
      ]),
    );
    return mergeWindows([
      ...subtractWindows([{ lo: farPast, hi: farFuture }], everyRecord),
      ...windows('lowering', false),
      ...closedCruises,
    ]);
  }
}
