import type {
  CompletenessQuery,
  CompletenessSummary,
  EventCompleteness,
  NewestCompleteness,
  WsCompleteness,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { EventAccess } from '../access/event-access.js';
import { EventQueries } from '../events/event-queries.js';
import { CompletenessRepository, type CompletenessRow, type LoweringWindow } from './completeness.repository.js';
import {
  completenessSettings,
  dataAgeOf,
  judge,
  type CompletenessSettings,
  type Judgement,
} from './completeness.rules.js';
import { requiredManagerSources } from './completeness-settings.js';

/** How many events one read of the watcher judges before it lets other work run. */
export const judgeBatch = 500;

/** Lets I/O callbacks (requests) run before the next batch. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Judged extends Judgement {
  id: string;
  ts: number;
  value: string;
  late: boolean;
  lowering_id: string | null;
  /** Whether any source is required for this event (completeness on). */
  applies: boolean;
}

/** Groups rows (already in event order) into events with their present sources and data ages. */
function byEvent(
  rows: readonly CompletenessRow[],
): Array<{ id: string; ts: number; value: string; present: Map<string, number | null> }> {
  const out: Array<{ id: string; ts: number; value: string; present: Map<string, number | null> }> = [];
  let last: (typeof out)[number] | undefined;
  for (const row of rows) {
    if (!last || last.id !== row.id) {
      last = { id: row.id, ts: row.ts, value: row.event_value, present: new Map() };
      out.push(last);
    }
    if (row.data_source !== null) last.present.set(row.data_source, dataAgeOf(row.aged));
  }
  return out;
}

/** The lowering holding `ts` (the latest-starting one when several do). */
function holding(lowerings: readonly LoweringWindow[], ts: number): LoweringWindow | undefined {
  return lowerings.find((l) => l.start_ts <= ts && ts <= l.stop_ts);
}

/**
 * Data completeness (docs/completeness.md): per event, whether the required aux data arrived and
 * how old it was; a lowering's summary; the pushes on the `completeness` channel.
 */
export class CompletenessService {
  constructor(private readonly ctx: AppContext) {}

  private get repo() {
    return new CompletenessRepository(this.ctx.database.db);
  }

  /** The data sources of the enabled required aux-data managers, read now (every lowering requires them). */
  private managerSources(): Promise<string[]> {
    return requiredManagerSources(this.repo);
  }

  private settings(loweringMeta: string | null | undefined, managerSources: readonly string[]): CompletenessSettings {
    return completenessSettings(this.ctx.config, loweringMeta, managerSources);
  }

  /** A lowering's summary: counts, missing and stale sources, and (asked) each event's state. */
  async summary(
    caller: AuthContext,
    loweringId: string,
    query: CompletenessQuery,
    access: EventAccess,
    now = this.ctx.now(),
  ): Promise<CompletenessSummary> {
    const record = await new EventQueries(this.ctx).record(
      caller,
      'lowering',
      loweringId,
      new AppError('NOT_FOUND', 'lowering not found for that id'),
    );
    const [lowering, managerSources] = await Promise.all([this.repo.lowering(loweringId), this.managerSources()]);
    const settings = this.settings(lowering?.lowering_additional_meta, managerSources);
    const window = { lo: record.start_ts, hi: record.stop_ts };
    const hidden = {
      shared: access.within(window.lo, window.hi, true),
      scoped: access.scopedWithin(window.lo, window.hi),
    };
    const repo = this.repo;
    const [rows, marks] = await Promise.all([
      repo.windowRows(window, settings.sources, hidden),
      repo.marksWithin(window.lo, window.hi),
    ]);
    const summary: CompletenessSummary = {
      required_sources: settings.sources,
      grace_seconds: settings.graceMs / 1000,
      max_age_seconds: settings.maxAgeSeconds,
      events_total: 0,
      events_complete: 0,
      events_incomplete: 0,
      events_pending: 0,
      events_late: 0,
      missing_by_source: Object.fromEntries(settings.sources.map((s) => [s, 0])),
      stale_by_source: Object.fromEntries(settings.sources.map((s) => [s, 0])),
      incomplete_event_ids: [],
    };
    const events: EventCompleteness[] = [];
    for (const e of byEvent(rows)) {
      const j = judge(e.ts, e.present, settings, now, e.value);
      const late = j.state === 'complete' && marks.has(e.id);
      summary.events_total += 1;
      if (j.state === 'complete') summary.events_complete += 1;
      else if (j.state === 'pending') summary.events_pending += 1;
      else {
        summary.events_incomplete += 1;
        summary.incomplete_event_ids!.push(e.id);
      }
      if (late) summary.events_late += 1;
      if (j.state === 'incomplete') {
        for (const s of j.missing) summary.missing_by_source[s] = (summary.missing_by_source[s] ?? 0) + 1;
        for (const s of j.stale) summary.stale_by_source[s] = (summary.stale_by_source[s] ?? 0) + 1;
      }
      if (query.events) {
        events.push({
          id: e.id,
          ts: new Date(e.ts).toISOString(),
          state: j.state,
          missing: j.missing,
          stale: j.stale,
          ...(late ? { late } : {}),
        });
      }
    }
    return query.events ? { ...summary, events } : summary;
  }

  /** The given events judged now, each under its lowering's settings. */
  async judgeEvents(eventIds: readonly string[], now = this.ctx.now()): Promise<Judged[]> {
    if (eventIds.length === 0) return [];
    const repo = this.repo;
    // The events' times first: which lowerings' settings apply.
    const plain = await repo.eventRows(eventIds, []);
    if (plain.length === 0) return [];
    const [lowerings, managerSources] = await Promise.all([
      repo.loweringsOverlapping(plain[0]!.ts, plain[plain.length - 1]!.ts),
      this.managerSources(),
    ]);
    const groups = new Map<string, { settings: CompletenessSettings; lowering: string | null; ids: string[] }>();
    for (const e of plain) {
      const lowering = holding(lowerings, e.ts);
      const key = lowering?.id ?? '';
      let group = groups.get(key);
      if (!group) {
        // Only events logged during a dive must carry the required sources: between dives (on deck,
        // in transit) nothing is required, so no warning fires (docs/completeness.md#states).
        const settings = lowering
          ? this.settings(lowering.lowering_additional_meta, managerSources)
          : { ...this.settings(undefined, []), sources: [] };
        group = {
          settings,
          lowering: lowering?.id ?? null,
          ids: [],
        };
        groups.set(key, group);
      }
      group.ids.push(e.id);
    }
    const marks = await repo.marksOf(eventIds);
    const out: Judged[] = [];
    for (const group of groups.values()) {
      for (const e of byEvent(await repo.eventRows(group.ids, group.settings.sources))) {
        const j = judge(e.ts, e.present, group.settings, now, e.value);
        out.push({
          ...j,
          id: e.id,
          ts: e.ts,
          value: e.value,
          late: j.state === 'complete' && marks.has(e.id),
          lowering_id: group.lowering,
          applies: group.settings.sources.length > 0,
        });
      }
    }
    return out;
  }

  /**
   * After aux data of these events changed: judge them, record a late arrival (a marked event that
   * is complete now) and publish each state on the `completeness` channel.
   */
  async refresh(eventIds: readonly string[], now = this.ctx.now()): Promise<WsCompleteness[]> {
    const judged = (await this.judgeEvents(eventIds, now)).filter((j) => j.applies);
    const marks = await this.repo.marksOf(judged.map((j) => j.id));
    // An event seen incomplete here (logged with a time already past its grace period) is marked too.
    await this.repo.mark(
      judged.filter((j) => j.state === 'incomplete' && !marks.has(j.id)).map((j) => j.id),
      now,
    );
    const arrived = judged.filter((j) => j.state === 'complete' && marks.get(j.id) === null).map((j) => j.id);
    const lostAgain = judged
      .filter((j) => j.state !== 'complete' && typeof marks.get(j.id) === 'number')
      .map((j) => j.id);
    await this.repo.setCompleted(arrived, now);
    await this.repo.setCompleted(lostAgain, null);
    return this.publish(judged);
  }

  /**
   * The windows of the lowerings overlapping [lo, hi] that require aux sources (by the deployment's
   * setting or their own): only events inside one are ever judged. One small indexed read.
   */
  async requiringWindows(lo: number, hi: number): Promise<Array<{ lo: number; hi: number }>> {
    const [lowerings, managerSources] = await Promise.all([
      this.repo.loweringsOverlapping(lo, hi),
      this.managerSources(),
    ]);
    const windows = lowerings
      .filter((l) => this.settings(l.lowering_additional_meta, managerSources).sources.length > 0)
      .map((l) => ({ lo: l.start_ts, hi: l.stop_ts }))
      .sort((a, b) => a.lo - b.lo);
    // Overlapping dives merged, so that no event is read twice.
    const merged: Array<{ lo: number; hi: number }> = [];
    for (const w of windows) {
      const last = merged[merged.length - 1];
      if (last && w.lo <= last.hi) last.hi = Math.max(last.hi, w.hi);
      else merged.push({ ...w });
    }
    return merged;
  }

  /**
   * The grace job's step: events whose grace period ended in (after, upTo] (by their time) and that
   * are still not complete are marked and published as incomplete. Only the parts of that range
   * inside a lowering that requires aux sources are read (events between dives cost nothing), and
   * the events are judged in batches of `batch`, yielding to the event loop between batches.
   * Answers what it published.
   */
  async judgeDue(after: number, upTo: number, now = this.ctx.now(), batch = judgeBatch): Promise<WsCompleteness[]> {
    const published: WsCompleteness[] = [];
    for (const w of await this.requiringWindows(after, upTo)) {
      // (after, upTo] ∩ [w.lo, w.hi], as (lo, hi].
      const due = await this.repo.eventsBetween(Math.max(after, w.lo - 1), Math.min(upTo, w.hi));
      for (let i = 0; i < due.length; i += batch) {
        if (i > 0) await yieldToLoop();
        const ids = due.slice(i, i + batch).map((e) => e.id);
        const judged = (await this.judgeEvents(ids, now)).filter((j) => j.applies && j.state === 'incomplete');
        if (judged.length === 0) continue;
        await this.repo.mark(
          judged.map((j) => j.id),
          now,
        );
        published.push(...this.publish(judged));
      }
    }
    return published;
  }

  /** The newest event the caller may see, judged (the footer's line). */
  /**
   * Whether anything is required anywhere: the deployment lists sources, or an enabled aux-data manager is
   * required. When not, the watcher has nothing to do (lowerings' own lists count only with the deployment's).
   */
  async watching(): Promise<boolean> {
    return this.ctx.config.completeness.requiredAuxSources.length > 0 || (await this.managerSources()).length > 0;
  }

  async newest(access: EventAccess): Promise<NewestCompleteness> {
    const required = [
      ...new Set([...this.ctx.config.completeness.requiredAuxSources, ...(await this.managerSources())]),
    ];
    const id = await this.repo.newestEventId(access);
    const [j] = id ? await this.judgeEvents([id]) : [];
    return {
      required_sources: required,
      // The newest event outside every dive is not judged: the footer shows no line for it.
      newest: j?.applies
        ? {
            event_id: j.id,
            lowering_id: j.lowering_id,
            ts: new Date(j.ts).toISOString(),
            state: j.state,
            missing: j.missing,
            stale: j.stale,
            ...(j.late ? { late: true } : {}),
          }
        : null,
    };
  }

  /** Deleted events leave no mark behind. */
  async forget(eventIds: readonly string[]): Promise<void> {
    await this.repo.removeMarks(eventIds);
  }

  private publish(judged: readonly Judged[]): WsCompleteness[] {
    const payloads = judged.map((j): WsCompleteness => ({
      event_id: j.id,
      event_value: j.value,
      lowering_id: j.lowering_id,
      ts: new Date(j.ts).toISOString(),
      state: j.state,
      missing: j.missing,
      stale: j.stale,
      ...(j.late ? { late: true } : {}),
    }));
    for (const p of payloads) this.ctx.bus.publish('completeness', p);
    return payloads;
  }
}
