import { customVarNames, newObjectId, type WsCustomVar, type WsEvent } from '@bathylog/shared';
import type { AppContext } from '../context.js';
import { CustomVarsRepository } from '../modules/custom-vars/custom-vars.repository.js';
import { EventsService } from '../modules/events/events.service.js';
import { EventAccess } from '../modules/access/event-access.js';
import type { AuthContext } from '../plugins/auth.js';
import { systemIds } from '../seed/system.js';

/** Logs one ASNAP event with the given id (through the events service, so its publish rules apply). */
export type LogAsnapEvent = (id: string) => Promise<void>;

/** The author of built-in ASNAP events, as a separate ASNAP bot user would appear. */
export const asnapAuthor = 'asnap';

/**
 * Built-in ASNAP (automatic snapshots): while the custom var asnapStatus is "On", an `ASNAP`
 * event is logged every config.asnap.intervalSeconds, as Sealog's sealog_asnap bot does, so a
 * vessel needs no separate script. Switching it Off (an updateCustomVars message on the bus,
 * from any process) stops it at once; every tick also re-reads the var in case a message was
 * lost. Only the leading process runs it (db/leader-election.ts).
 *
 * A vessel that still runs Sealog's sealog_asnap script gets ASNAP events from it too; two sources
 * would double the snapshots. So while ASNAP events that this service did not log keep arriving
 * (one within config.asnap.externalQuietSeconds), the built-in one stays quiet, and it says so in
 * the log once when it falls quiet and once when it takes over again.
 */
export class AsnapService {
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private ticking: Promise<void> | null = null;
  private started = false;
  /** Ids of the latest snapshots this service logged, to tell them from another source's. */
  private readonly ownIds: string[] = [];
  /** When an ASNAP event from another source last arrived (ms), and who logged it. */
  private lastExternal: { at: number; author: string } | null = null;
  private quiet = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly logEvent: LogAsnapEvent,
  ) {}

  get running(): boolean {
    return this.timer !== null;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const offVars = this.ctx.bus.subscribe('updateCustomVars', (payload) => this.onCustomVar(payload as WsCustomVar));
    const offEvents = this.ctx.bus.subscribe('newEvents', (payload) => this.onNewEvent(payload as WsEvent));
    this.unsubscribe = () => {
      offVars();
      offEvents();
    };
    if ((await this.readStatus()) === 'On') this.switchOn();
  }

  private onCustomVar(payload: WsCustomVar): void {
    if (!this.started || payload?.custom_var_name !== customVarNames.asnapStatus) return;
    if (payload.custom_var_value === 'On') this.switchOn();
    else this.switchOff();
  }

  private onNewEvent(event: WsEvent): void {
    if (event?.event_value !== 'ASNAP' || this.ownIds.includes(event.id)) return;
    this.lastExternal = { at: Date.now(), author: String(event.event_author ?? '') };
  }

  /** Whether another source's ASNAP events arrived recently enough to stay quiet for. */
  private externalActive(): boolean {
    const windowMs = this.ctx.config.asnap.externalQuietSeconds * 1000;
    const active = this.lastExternal !== null && Date.now() - this.lastExternal.at < windowMs;
    if (active && !this.quiet) {
      this.quiet = true;
      this.ctx.log.info(
        { author: this.lastExternal!.author.slice(0, 100) },
        `built-in ASNAP quiet: ASNAP events arrive from another source (such as Sealog's sealog_asnap); ` +
          `it logs again ${this.ctx.config.asnap.externalQuietSeconds} s after the last of them`,
      );
    } else if (!active && this.quiet) {
      this.quiet = false;
      this.ctx.log.info('built-in ASNAP resumes: no ASNAP event from another source lately');
    }
    return active;
  }

  private switchOn(): void {
    if (this.timer || !this.started) return;
    this.timer = setInterval(() => void this.tick(), this.ctx.config.asnap.intervalSeconds * 1000);
    this.timer.unref();
    // The first snapshot goes out right away, as the bot's loop posts before it sleeps.
    void this.tick();
  }

  private switchOff(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async readStatus(): Promise<string | undefined> {
    const found = await new CustomVarsRepository(this.ctx.database.db).findByName(customVarNames.asnapStatus);
    return found?.custom_var_value;
  }

  private tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = (async () => {
      try {
        if ((await this.readStatus()) !== 'On') {
          this.switchOff();
          return;
        }
        if (!this.timer || this.externalActive()) return;
        const id = newObjectId();
        this.ownIds.push(id);
        if (this.ownIds.length > 16) this.ownIds.shift();
        await this.logEvent(id);
      } catch (err) {
        this.ctx.log.warn({ err }, 'ASNAP snapshot failed');
      }
    })().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  async stop(): Promise<void> {
    this.started = false;
    this.switchOff();
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.ticking;
  }
}

/** Logs ASNAP events as the sealog_asnap bot posts them: value ASNAP, no options, no free text. */
export function logAsnapThroughEvents(ctx: AppContext): LogAsnapEvent {
  const events = new EventsService(ctx);
  // The server itself is the caller; the author is given, so the caller's name is never used.
  const caller = {
    user: { id: systemIds.admin, username: asnapAuthor },
    scopes: ['admin'],
    isAdmin: true,
  } as unknown as AuthContext;
  return async (id) => {
    await events.create(
      caller,
      {
        id,
        event_value: 'ASNAP',
        event_options: [],
        event_free_text: '',
        event_author: asnapAuthor,
      },
      EventAccess.everything,
    );
  };
}
