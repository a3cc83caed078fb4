import type { WsAuxData, WsEvent } from '@bathylog/shared';
import type { AppContext } from '../context.js';
import { PeriodicTask } from '../lib/periodic-task.js';
import { CompletenessService, judgeBatch, yieldToLoop } from '../modules/completeness/completeness.service.js';

/** How often the watcher judges queued events and looks for grace periods that ended. */
const tickMs = 1000;
/** On start, events whose grace period ended this long ago are judged too (no leader ran meanwhile). */
const catchUpMs = 10 * 60_000;

/**
 * Data completeness watched live (docs/completeness.md#the-watcher): events and aux data changing on
 * the bus are judged again and their state is published on the `completeness` channel; once a
 * second, events whose grace period ended since the last look and that still miss a required
 * source are marked and published as incomplete. Runs on the leading process only; it judges
 * nothing while neither the deployment nor an enabled required aux-data manager requires a source
 * (one small read a second tells).
 *
 * Off the request path and cheap where nothing is required: a bus message only adds the event's
 * id (and time) to a queue; a tick first reads which lowerings overlapping the queued times require
 * aux sources and drops the events outside them without a read of their own; the rest are judged
 * in bounded batches with the event loop free between them.
 */
export class CompletenessWatcher {
  /** Queued event ids with their time when the message carried it (aux data names only the event). */
  private readonly queued = new Map<string, number | null>();
  private readonly task = new PeriodicTask(() => this.tick());
  private unsubscribe: Array<() => void> = [];
  private watermark = 0;

  constructor(private readonly ctx: AppContext) {}

  async start(): Promise<void> {
    if (this.unsubscribe.length > 0) return;
    const { bus } = this.ctx;
    const queueEvent = (e: WsEvent) => {
      const ts = Date.parse(e.ts);
      this.queued.set(e.id, Number.isFinite(ts) ? ts : null);
    };
    const queueAux = (a: WsAuxData) => {
      if (!this.queued.has(a.event_id)) this.queued.set(a.event_id, null);
    };
    this.unsubscribe = [
      bus.subscribe('newEvents', queueEvent),
      bus.subscribe('updateEvents', queueEvent),
      bus.subscribe('newEventAuxData', queueAux),
      bus.subscribe('updateEventAuxData', queueAux),
      bus.subscribe('deleteEventAuxData', queueAux),
      bus.subscribe('deleteEvents', (e) => {
        this.queued.delete(e.id);
        void new CompletenessService(this.ctx).forget([e.id]).catch(() => {});
      }),
    ];
    this.watermark = this.ctx.now() - this.ctx.config.completeness.graceSeconds * 1000 - catchUpMs;
    this.task.start(tickMs);
    await this.runOnce();
  }

  /** One tick now (tests). */
  runOnce(): Promise<void> {
    return this.task.runOnce();
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    await this.task.stop();
  }

  /** The queued events that may need judging: those of unknown time, and those inside a requiring dive. */
  private async takeQueued(service: CompletenessService): Promise<string[]> {
    const entries = [...this.queued];
    this.queued.clear();
    let lo = Infinity;
    let hi = -Infinity;
    for (const [, ts] of entries) {
      if (ts === null) continue;
      if (ts < lo) lo = ts;
      if (ts > hi) hi = ts;
    }
    const windows = lo <= hi ? await service.requiringWindows(lo, hi) : [];
    return entries.filter(([, ts]) => ts === null || windows.some((w) => w.lo <= ts && ts <= w.hi)).map(([id]) => id);
  }

  private async tick(): Promise<void> {
    try {
      const service = new CompletenessService(this.ctx);
      const now = this.ctx.now();
      const upTo = now - this.ctx.config.completeness.graceSeconds * 1000;
      if (!(await service.watching())) {
        // Nothing is required: what happened meanwhile is judged on read, never pushed late.
        this.queued.clear();
        this.watermark = Math.max(this.watermark, upTo);
        return;
      }
      if (this.queued.size > 0) {
        const ids = await this.takeQueued(service);
        for (let i = 0; i < ids.length; i += judgeBatch) {
          if (i > 0) await yieldToLoop();
          await service.refresh(ids.slice(i, i + judgeBatch), now);
        }
      }
      if (upTo > this.watermark) {
        await service.judgeDue(this.watermark, upTo, now);
        this.watermark = upTo;
      }
    } catch (err) {
      this.ctx.log.warn({ err }, 'completeness check failed');
    }
  }
}
