import type { AuxManagerCounters, AuxManagerState, WsEvent } from '@bathylog/shared';
import type { AppContext } from '../context.js';
import { PeriodicTask } from '../lib/periodic-task.js';
import { internalChannels } from '../realtime/internal-channels.js';
import type { AuxSource } from '../aux-sources/source.js';
import {
  AuxManagersService,
  emptyCounters,
  operatorMessage,
  type ManagerDefinition,
  type Outcome,
} from '../modules/aux-managers/aux-managers.service.js';
import type { ManagedEvent } from '../modules/aux-managers/aux-managers.repository.js';
import { EventsService } from '../modules/events/events.service.js';
import { EventAccess } from '../modules/access/event-access.js';
import type { AuthContext } from '../plugins/auth.js';

/** The most waiting events one batched read takes. */
const batchLimit = 50;

interface Running {
  def: ManagerDefinition;
  source: AuxSource | null;
  queue: ManagedEvent[];
  active: number;
  state: AuxManagerState;
  /** When the current run of failures began (null: the last request answered). */
  failingSince: number | null;
  lastValueTs: number | null;
  lastSuccessAt: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
  counters: AuxManagerCounters;
  dirty: boolean;
  lastAlarmAt: number;
}

/**
 * The aux-data managers at work (docs/aux-managers.md#runtime): each enabled manager's source is started; every
 * new event (and an event whose time changed, which Sealog publishes as a new event) goes into each manager's
 * bounded queue, worked with a few requests at once, each cancelled at the manager's timeout, so a hanging
 * source delays only its own queue. A probe every few seconds keeps health current between events. Health is
 * stored for every process and published on `auxManagers`; a state change may log a rate-limited alarm event.
 * Runs on the leading process only.
 */
export class AuxManagerRunner {
  private readonly running = new Map<string, Running>();
  private unsubscribe: Array<() => void> = [];
  private readonly probe = new PeriodicTask(() => this.probeAll());
  private readonly flush = new PeriodicTask(() => this.flushHealth());
  private started = false;
  private reloading: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: AppContext) {}

  private get settings() {
    return this.ctx.config.auxManagers;
  }

  private get service() {
    return new AuxManagersService(this.ctx);
  }

  async start(): Promise<void> {
    if (this.started || !this.settings.enabled) return;
    this.started = true;
    const { bus } = this.ctx;
    this.unsubscribe = [
      bus.subscribe('newEvents', (e: WsEvent) => this.enqueue(e)),
      bus.subscribe(internalChannels.auxManagersChanged, ({ managerId }) => {
        this.reloading = this.reloading
          .then(() => this.reload(managerId))
          .catch((err: unknown) => {
            this.ctx.log.warn({ err }, 'aux-data manager reload failed');
          });
      }),
    ];
    for (const def of await this.service.definitions()) await this.load(def);
    this.probe.start(this.settings.probeSeconds * 1000);
    this.flush.start(1000);
    await this.probeAll();
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    await this.probe.stop();
    await this.reloading;
    await Promise.all([...this.running.values()].map((r) => r.source?.stop().catch(() => {})));
    await this.flushHealth();
    await this.flush.stop();
    this.running.clear();
  }

  /** Runs the probes once now (tests); health is stored right after. */
  async probeNow(): Promise<void> {
    await this.probeAll();
    await this.flushHealth();
  }

  /** Resolves once every queue is empty and no request is in flight (tests, bench). */
  async idle(): Promise<void> {
    while ([...this.running.values()].some((r) => r.queue.length > 0 || r.active > 0))
      await new Promise((resolve) => setTimeout(resolve, 10));
    await this.flushHealth();
  }

  private async load(def: ManagerDefinition): Promise<void> {
    const previous = this.running.get(def.row.id);
    const r: Running = previous
      ? { ...previous, def, source: null, queue: previous.queue }
      : {
          def,
          source: null,
          queue: [],
          active: 0,
          state: 'stale',
          failingSince: null,
          lastValueTs: null,
          lastSuccessAt: null,
          lastError: null,
          lastErrorAt: null,
          counters: emptyCounters(),
          dirty: true,
          lastAlarmAt: 0,
        };
    if (def.row.enabled !== 1) {
      r.queue = [];
      this.setState(r, 'disabled');
    } else if (!def.config) {
      r.lastError = def.problem;
      r.lastErrorAt = this.ctx.now();
      this.setState(r, 'error');
    } else {
      r.source = this.service.createSource(def);
      try {
        await r.source.start();
      } catch (err) {
        this.fail(r, err);
      }
      if (r.state === 'disabled') this.setState(r, 'stale');
    }
    r.dirty = true;
    this.running.set(def.row.id, r);
  }

  private async reload(id: string): Promise<void> {
    if (!this.started) return;
    const previous = this.running.get(id);
    await previous?.source?.stop().catch(() => {});
    const def = await this.service.definition(id);
    if (!def) {
      this.running.delete(id);
      return;
    }
    await this.load(def);
    // The first probe must not hold up the next manager's reload.
    void this.probeOne(this.running.get(id)!);
  }

  private enqueue(e: WsEvent): void {
    const ts = Date.parse(e.ts);
    if (!e.id || !Number.isFinite(ts)) return;
    const event: ManagedEvent = { id: e.id, ts, event_value: String(e.event_value ?? '') };
    for (const r of this.running.values()) {
      if (!r.source) continue;
      if (r.queue.length >= this.settings.queueLimit) {
        // The queue is full: the oldest waiting event is dropped and counted; a backfill fills it later.
        r.queue.shift();
        r.counters.errors += 1;
        r.lastError = `queue full (${this.settings.queueLimit} events waiting): an event was left for backfill`;
        r.lastErrorAt = this.ctx.now();
      }
      r.queue.push(event);
      this.pump(r);
    }
  }

  private pump(r: Running): void {
    while (r.source && r.active < this.settings.concurrency && r.queue.length > 0) {
      // A source that reads a span at once takes the waiting events of a burst in one request.
      const take = r.source.readingsAt && r.queue.length > 1 ? batchLimit : 1;
      const events = r.queue.splice(0, take);
      r.active += 1;
      const job = events.length === 1 ? this.work(r, r.source, events[0]!) : this.workBatch(r, r.source, events);
      void job.finally(() => {
        r.active -= 1;
        this.pump(r);
      });
    }
  }

  private async workBatch(r: Running, source: AuxSource, events: ManagedEvent[]): Promise<void> {
    let results;
    try {
      const keys = Object.keys(r.def.config!.lookup);
      results = await source.readingsAt!(
        events.map((e) => e.ts),
        {
          maxAgeMs: r.def.row.max_age_ms,
          keys,
          interpolate: keys.filter((k) => r.def.config!.lookup[k]!.interpolate),
          signal: AbortSignal.timeout(r.def.row.timeout_ms),
          imagesDir: this.ctx.paths.images,
        },
      );
    } catch (err) {
      for (let i = 0; i < events.length; i++) this.fail(r, err);
      return;
    }
    for (const [i, event] of events.entries()) {
      try {
        const signal = AbortSignal.timeout(r.def.row.timeout_ms);
        const { outcome, valueTs } = await this.service.resolve(
          r.def,
          source,
          event,
          { backfill: false, dryRun: false, signal },
          results[i],
        );
        this.count(r, outcome, valueTs);
      } catch (err) {
        this.fail(r, err);
      }
    }
  }

  private async work(r: Running, source: AuxSource, event: ManagedEvent): Promise<void> {
    try {
      const signal = AbortSignal.timeout(r.def.row.timeout_ms);
      const { outcome, valueTs } = await this.service.resolve(r.def, source, event, {
        backfill: false,
        dryRun: false,
        signal,
      });
      this.count(r, outcome, valueTs);
    } catch (err) {
      this.fail(r, err);
    }
  }

  private count(r: Running, outcome: Outcome, valueTs?: number): void {
    const c = r.counters;
    if (outcome === 'written' || outcome === 'unchanged') c.written += outcome === 'written' ? 1 : 0;
    else if (outcome === 'stale') c.skipped_stale += 1;
    else if (outcome === 'no_data') c.no_data += 1;
    else if (outcome === 'excluded') c.excluded += 1;
    else if (outcome === 'external') c.external += 1;
    if (outcome !== 'excluded') this.succeed(r, valueTs);
    r.dirty = true;
  }

  private succeed(r: Running, valueTs?: number): void {
    r.failingSince = null;
    r.lastSuccessAt = this.ctx.now();
    if (valueTs !== undefined) r.lastValueTs = Math.max(r.lastValueTs ?? 0, valueTs);
  }

  /** A failed request; `counted`: an event's (probes only move the state). */
  private fail(r: Running, err: unknown, counted = true): void {
    const message = operatorMessage(err);
    const now = this.ctx.now();
    r.failingSince ??= now;
    r.lastError = message;
    r.lastErrorAt = now;
    if (counted && message.includes('in time')) r.counters.timeouts += 1;
    else if (counted) r.counters.errors += 1;
    // A short outage is stale (values age); one that lasts is an error.
    this.setState(r, now - r.failingSince >= this.settings.errorAfterSeconds * 1000 ? 'error' : 'stale');
    r.dirty = true;
  }

  /** A reading at now: current, stale or failing, whatever the events do. */
  private async probeOne(r: Running): Promise<void> {
    if (!r.source || !r.def.config) return;
    try {
      const at = this.ctx.now();
      const keys = Object.keys(r.def.config.lookup);
      const result = await r.source.readingAt({
        at,
        maxAgeMs: r.def.row.max_age_ms,
        keys,
        signal: AbortSignal.timeout(r.def.row.timeout_ms),
        imagesDir: this.ctx.paths.images,
        eventId: '',
      });
      if (result.kind === 'reading' && result.reading.ts >= at - r.def.row.max_age_ms) {
        this.succeed(r, result.reading.ts);
        this.setState(r, 'ok');
      } else {
        r.failingSince = null;
        r.lastSuccessAt = this.ctx.now();
        if (result.kind === 'stale' && result.newestTs) r.lastValueTs = Math.max(r.lastValueTs ?? 0, result.newestTs);
        this.setState(r, 'stale');
      }
    } catch (err) {
      this.fail(r, err, false);
    }
    r.dirty = true;
  }

  private async probeAll(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => this.probeOne(r)));
  }

  private setState(r: Running, state: AuxManagerState): void {
    if (r.state === state) return;
    const from = r.state;
    r.state = state;
    r.dirty = true;
    if (this.settings.alarmEvents && from !== 'disabled' && state !== 'disabled') this.alarm(r, from, state);
  }

  /** An alarm event for a state change, at most one per manager per alarm interval. */
  private alarm(r: Running, from: AuxManagerState, to: AuxManagerState): void {
    const now = this.ctx.now();
    if (now - r.lastAlarmAt < this.settings.alarmIntervalSeconds * 1000) return;
    r.lastAlarmAt = now;
    const caller = {
      user: { id: '000000000000000000000000', username: 'aux-managers' },
      scopes: ['admin'],
      isAdmin: true,
      key: null,
    } as unknown as AuthContext;
    const text = `${r.def.row.name}: ${from} → ${to}${to !== 'ok' && r.lastError ? ` (${r.lastError})` : ''}`;
    new EventsService(this.ctx)
      .create(
        caller,
        {
          event_value: 'AUX_SOURCE_ALARM',
          event_author: 'aux-managers',
          event_options: [
            { event_option_name: 'manager', event_option_value: r.def.row.name },
            { event_option_name: 'state', event_option_value: to },
          ],
          event_free_text: text.slice(0, 1000),
        },
        EventAccess.everything,
      )
      .catch((err: unknown) => this.ctx.log.warn({ err }, 'aux-data manager alarm event failed'));
  }

  private async flushHealth(): Promise<void> {
    const service = this.service;
    for (const r of this.running.values()) {
      if (!r.dirty) continue;
      r.dirty = false;
      const row = {
        manager_id: r.def.row.id,
        state: r.state,
        last_value_ts: r.lastValueTs,
        last_success_at: r.lastSuccessAt,
        last_error: r.lastError,
        last_error_at: r.lastErrorAt,
        counters: JSON.stringify(r.counters),
        updated_at: this.ctx.now(),
      };
      try {
        await service.saveHealth(row);
        this.ctx.bus.publish('auxManagers', service.healthOf(r.def.row, row, r.def.problem));
      } catch (err) {
        r.dirty = true;
        this.ctx.log.warn({ err }, 'aux-data manager health not stored');
      }
    }
  }
}
