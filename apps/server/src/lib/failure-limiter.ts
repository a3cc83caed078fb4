/**
 * Counts failures per key in a sliding window (login: per username and per address).
 * In memory: a restart forgets, which is acceptable for throttling guesses.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Milliseconds until the key may try again, or 0 when it may now. */
  blockedFor(key: string, now = Date.now()): number {
    const list = this.recent(key, now);
    if (list.length < this.max) return 0;
    return this.windowMs - (now - list[list.length - this.max]!);
  }

  fail(key: string, now = Date.now()): void {
    const list = this.recent(key, now);
    list.push(now);
    this.failures.set(key, list);
    if (this.failures.size > 100_000) this.failures.delete(this.failures.keys().next().value!);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }
}

/**
 * Exponential backoff per key: the first `free` failures cost nothing; after that each failure
 * makes the key wait 1 s, 2 s, 4 s, … up to `maxDelayMs` before its next try. A key quiet for
 * twice the longest wait starts afresh, so a guesser that keeps trying stays at the longest wait
 * while a user who mistyped a few times is forgotten soon. In memory, like FailureLimiter.
 */
export class BackoffLimiter {
  private readonly entries = new Map<string, { failures: number; last: number }>();

  constructor(
    private readonly free: number,
    private readonly maxDelayMs: number,
  ) {}

  private live(key: string, now: number): { failures: number; last: number } | undefined {
    const entry = this.entries.get(key);
    if (entry && now - entry.last > 2 * this.maxDelayMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Failures the key has on record (0 once forgotten). */
  failures(key: string, now = Date.now()): number {
    return this.live(key, now)?.failures ?? 0;
  }

  /** Milliseconds until the key may try again, or 0 when it may now. */
  blockedFor(key: string, now = Date.now()): number {
    const entry = this.live(key, now);
    if (!entry || entry.failures < this.free) return 0;
    const delay = Math.min(this.maxDelayMs, 1000 * 2 ** Math.min(30, entry.failures - this.free));
    return Math.max(0, entry.last + delay - now);
  }

  fail(key: string, now = Date.now()): void {
    const entry = this.live(key, now) ?? { failures: 0, last: now };
    entry.failures++;
    entry.last = now;
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > 100_000) this.entries.delete(this.entries.keys().next().value!);
  }

  reset(key: string): void {
    this.entries.delete(key);
  }
}
