import { customVarNames, type WsCustomVar } from '@bathylog/shared';
import type { AppContext } from '../context.js';
import { CustomVarsRepository } from '../modules/custom-vars/custom-vars.repository.js';
import { EventsService } from '../modules/events/events.service.js';
import { EventAccess } from '../modules/access/event-access.js';
import type { AuthContext } from '../plugins/auth.js';
import { systemIds } from '../seed/system.js';

/** Logs one ASNAP event (through the events service, so its publish rules apply). */
export type LogAsnapEvent = () => Promise<void>;

/** The author of built-in ASNAP events, as a separate ASNAP bot user would appear. */
export const asnapAuthor = 'asnap';

/**
 * Built-in ASNAP (automatic snapshots): while the custom var asnapStatus is "On", an `ASNAP`
 * event is logged every config.asnap.intervalSeconds, as Sealog's sealog_asnap bot does, so a
 * vessel needs no separate script. Switching it Off (an updateCustomVars message on the bus,
 * from any process) stops it at once; every tick also re-reads the var in case a message was
 * lost. Only the leading process runs it (db/leader-election.ts).
 */
export class AsnapService {
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private ticking: Promise<void> | null = null;
  private started = false;

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
    this.unsubscribe = this.ctx.bus.subscribe('updateCustomVars', (payload) =>
      this.onCustomVar(payload as WsCustomVar),
    );
    if ((await this.readStatus()) === 'On') this.switchOn();
  }

  private onCustomVar(payload: WsCustomVar): void {
    if (!this.started || payload?.custom_var_name !== customVarNames.asnapStatus) return;
    if (payload.custom_var_value === 'On') this.switchOn();
    else this.switchOff();
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
        if (!this.timer) return;
        await this.logEvent();
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
  return async () => {
    await events.create(
      caller,
      {
        event_value: 'ASNAP',
        event_options: [],
        event_free_text: '',
        event_author: asnapAuthor,
      },
      EventAccess.everything,
    );
  };
}
