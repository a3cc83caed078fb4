import type { RecordKind } from './access.repository.js';
import { mergeWindows, type TsWindow } from './event-access.js';

/**
 * The public archive's reader: the anonymous archive visitor (docs/public-archive.md). With the
 * archive on, a request without a token on a route that admits the visitor (`config.archive`)
 * reads as this visitor. What it may see follows from each record's archive setting alone, read at
 * request time against the server clock (`AppContext.now`), so an embargo opens by itself:
 *
 * - closed: not public, or hidden. Not listed; opening it, its files or its events is refused.
 * - stub: public but embargoed (now < embargo end). Listed and opened as a stub (id, name, dates
 *   and the date it opens); nothing of its files or events.
 * - open: public, embargo passed or none. Read like any reader does, without access lists.
 *
 * A lowering's setting is its own when it sets one (`lowering_public` not null), otherwise its
 * cruise's (the latest-starting cruise whose window holds it; none: closed).
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

export function effectiveSetting(record: ArchiveRecord, cruises: readonly ArchiveRecord[]): ArchiveSetting {
  if (record.kind === 'cruise' || record.isPublic !== null) {
    return { isPublic: record.isPublic === true, embargoUntil: record.embargoUntil };
  }
  const cruise = cruiseOf(record, cruises);
  return cruise
    ? { isPublic: cruise.isPublic === true, embargoUntil: cruise.embargoUntil }
    : { isPublic: false, embargoUntil: null };
}

export function archiveState(hidden: boolean, setting: ArchiveSetting, now: number): ArchiveState {
  if (hidden || !setting.isPublic) return 'closed';
  return setting.embargoUntil !== null && now < setting.embargoUntil ? 'stub' : 'open';
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
  private constructor(private readonly entries: ReadonlyMap<string, Entry>) {}

  static of(records: readonly ArchiveRecord[], now: number): ArchiveView {
    const cruises = records.filter((r) => r.kind === 'cruise');
    const entries = new Map<string, Entry>();
    for (const record of records) {
      const setting = effectiveSetting(record, cruises);
      entries.set(`${record.kind}:${record.id}`, { record, setting, state: archiveState(record.hidden, setting, now) });
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

  /**
   * The times whose events the visitor may not see (merged windows, for `EventAccess`). An event
   * inside any lowering is seen when every lowering holding it is open; an event inside cruises
   * only, when every cruise holding it is open; an event outside every record never.
   */
  hiddenWindows(): TsWindow[] {
    const windows = (kind: RecordKind, open: boolean) =>
      [...this.entries.values()]
        .filter((e) => e.record.kind === kind && (e.state === 'open') === open)
        .map((e) => ({ lo: e.record.start, hi: e.record.stop }));
    const lowerings = [...windows('lowering', true), ...windows('lowering', false)];
    const everyRecord = [...windows('cruise', true), ...windows('cruise', false), ...lowerings];
    return mergeWindows([
      ...subtractWindows([{ lo: farPast, hi: farFuture }], everyRecord),
      ...windows('lowering', false),
      ...subtractWindows(windows('cruise', false), lowerings),
    ]);
  }
}
