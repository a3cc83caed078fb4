import type { AppContext } from '../context.js';
import { PeriodicTask } from '../lib/periodic-task.js';
import { ChecklistsService } from '../modules/checklists/checklists.service.js';

/**
 * Re-evaluates the automatic items of every open checklist run (docs/checklists.md#conditions):
 * every checklistIntervalSeconds, and at once when a custom var or aux data changes. A run whose
 * items changed is pushed on `checklists`; one that is now satisfied completes.
 */
export class ChecklistMonitor {
  private readonly task = new PeriodicTask(() => this.pass());
  private seen = new Map<string, string>();
  private unsubscribe: Array<() => void> = [];
  private again = false;

  constructor(private readonly ctx: AppContext) {}

  async start(): Promise<void> {
    const soon = () => this.runSoon();
    this.unsubscribe = [
      this.ctx.bus.subscribe('updateCustomVars', soon),
      this.ctx.bus.subscribe('newEventAuxData', soon),
      this.ctx.bus.subscribe('updateEventAuxData', soon),
    ];
    this.task.start(this.ctx.config.checklistIntervalSeconds * 1000);
    await this.runOnce();
  }

  /** One pass; errors are logged, never thrown. */
  runOnce(): Promise<void> {
    return this.task.runOnce();
  }

  /** A change arrived: a pass now, or right after the one under way (which may have read too early). */
  private runSoon(): void {
    this.again = true;
    void this.task.runOnce();
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    await this.task.stop();
  }

  private async pass(): Promise<void> {
    const service = new ChecklistsService(this.ctx);
    do {
      this.again = false;
      try {
        this.seen = await service.reevaluate(this.seen);
      } catch (err) {
        this.ctx.log.warn({ err }, 'checklist evaluation failed');
      }
    } while (this.again && this.unsubscribe.length > 0);
  }
}
