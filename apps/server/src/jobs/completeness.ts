import type { WsAuxData, WsEvent } from '@bathylog/shared';
import type { AppContext } from '../context.js';
import { PeriodicTask } from '../lib/periodic-task.js';
import { CompletenessService } from '../modules/completeness/completeness.service.js';

/** How often the watcher judges queued events and looks for grace periods that ended. */
const tickMs = 1000;
/** On start, events whose grace period ended this long ago are judged too (no leader ran meanwhile). */
const catchUpMs = 10 * 60_000;

/**
 * Data completeness watched live (docs/completeness.md#the-watcher): events and aux data changing on
 * the bus are judged again (in one set-based read per tick) and their state is published on the
 * `completeness` channel; once a second, events whose grace period ended since the last look and
 * that still miss a required source are marked and published as incomplete. Runs on the leading
 * process only, and only when the deployment requires aux sources.
 */
export class CompletenessWatcher {
  private readonly queued = new Set<string>();
  private readonly task = new PeriodicTask(() => this.tick());
  private unsubscribe: Array<() => void> = [];
  private watermark = 0;

  constructor(private readonly ctx: AppContext) {}

  get enabled(): boolean {
    return this.ctx.config.completeness.requiredAuxSources.length > 0;
  }

  async start(): Promise<void> {
    if (!this.enabled || this.unsubscribe.length > 0) return;
    const { bus } = this.ctx;
    const queueEvent = (e: WsEvent) => this.queued.add(e.id);
    const queueAux = (a: WsAuxData) => this.queued.add(a.event_id);
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

  private async tick(): Promise<void> {
    try {
      const service = new CompletenessService(this.ctx);
      const now = this.ctx.now();
      if (this.queued.size > 0) {
        const ids = [...this.queued];
        this.queued.clear();
        await service.refresh(ids, now);
      }
      const upTo = now - this.ctx.config.completeness.graceSeconds * 1000;
      if (upTo > this.watermark) {
        await service.judgeDue(this.watermark, upTo, now);
        this.watermark = upTo;
      }
    } catch (err) {
      this.ctx.log.warn({ err }, 'completeness check failed');
    }
  }
}
