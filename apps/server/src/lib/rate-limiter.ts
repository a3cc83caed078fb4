/**
 * Counts requests per key in fixed one-minute windows (write routes: per device key and per
 * address). In memory: a restart forgets, which is acceptable for throttling.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    /** Requests allowed per window; 0 = no limit. */
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one request; answers the milliseconds to wait when it is over the limit, else 0. */
  take(key: string, now = Date.now()): number {
    if (this.max === 0) return 0;
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 100_000) this.prune(now);
    }
    if (window.count >= this.max) return window.start + this.windowMs - now;
    window.count++;
    return 0;
  }

  private prune(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(key);
  }
}
