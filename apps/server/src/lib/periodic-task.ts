/**
 * A job the server runs every so often (free-space readings, scheduled backups): one run at a
 * time (a call while one runs joins it), a timer that never keeps the process alive, and a stop
 * that waits for the run in progress.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  /** `work` must not throw: a job logs its own failures. */
  constructor(private readonly work: () => Promise<void>) {}

  /** Starts the timer (no-op when already started or intervalMs is 0). */
  start(intervalMs: number): void {
    if (this.timer || intervalMs <= 0) return;
    this.timer = setInterval(() => void this.runOnce(), intervalMs);
    this.timer.unref();
  }

  runOnce(): Promise<void> {
    this.running ??= this.work().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
