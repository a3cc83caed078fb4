/**
 * A token bucket over bytes: `take(n)` waits until the bytes fit the rate, `settle(n)` books what
 * passed beyond what was taken. The bucket holds at most a quarter second of bytes, so in any
 * window of T seconds at most rate × (T + 0.25) bytes pass, plus whatever one answer brings beyond what was taken.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    /** Bytes per second; null: no cap. */
    private readonly rate: number | null,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = this.capacity;
    this.last = now();
  }

  /** The most a single take should ask for (larger requests are split by the caller). */
  get capacity(): number {
    return this.rate === null ? Number.POSITIVE_INFINITY : Math.max(512, Math.floor(this.rate / 4));
  }

  private refill(): void {
    if (this.rate === null) return;
    const t = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((t - this.last) / 1000) * this.rate);
    this.last = t;
  }

  async take(n: number, signal?: AbortSignal): Promise<void> {
    if (this.rate === null) return;
    this.refill();
    this.tokens -= n;
    if (this.tokens < 0) await sleep((-this.tokens / this.rate) * 1000, signal);
  }

  /**
   * Books bytes that passed beyond what was taken. What was taken and not used is not given back:
   * with many requests in flight, the give-backs would all land in one window, above the rate.
   */
  settle(n: number): void {
    if (this.rate === null || n <= 0) return;
    this.refill();
    this.tokens -= n;
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
