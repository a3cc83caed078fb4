import type { Reading, ReadingRequest, ReadingResult } from '../source.js';

type Value = Reading['values'][string];

/**
 * The short, time-indexed memory of a live source: readings kept in time order, bounded by age and
 * by count, so an event that reaches its manager a few seconds late still gets the value of its own
 * time. What the buffer never held (older than its age bound, evicted by its count bound, or before
 * the source started) is `not_backfillable`: a live source has no way to know it, and today's value
 * must never stand in for it (docs/aux-live-sources.md#the-buffer).
 */
export class ReadingBuffer {
  private readings: Reading[] = [];
  /** Nothing before this time can be answered (start of the source, or the last eviction). */
  private coveredFrom: number;

  constructor(
    private readonly limits: { maxAgeMs: number; maxCount: number },
    private readonly now: () => number = Date.now,
  ) {
    this.coveredFrom = now();
  }

  /** A (re)started source covers time from now on. */
  restart(): void {
    this.coveredFrom = Math.max(this.coveredFrom, this.now());
  }

  get size(): number {
    return this.readings.length;
  }

  get newest(): Reading | undefined {
    return this.readings[this.readings.length - 1];
  }

  push(reading: Reading): void {
    const list = this.readings;
    // Readings nearly always arrive in time order; one out of order is placed where it belongs.
    let i = list.length;
    while (i > 0 && list[i - 1]!.ts > reading.ts) i--;
    list.splice(i, 0, reading);
    if (list.length > this.limits.maxCount) this.drop(list.length - this.limits.maxCount);
    this.prune();
  }

  /**
   * Forgets readings older than the age bound, but keeps the newest of those: it is still the value
   * at or before any time inside the bound until a newer reading arrives (and it makes a silent
   * source's answer `stale` rather than `no_data`).
   */
  private prune(): void {
    const horizon = this.now() - this.limits.maxAgeMs;
    let n = 0;
    while (n + 1 < this.readings.length && this.readings[n + 1]!.ts < horizon) n++;
    if (n) this.readings.splice(0, n);
  }

  /** Drops the `n` oldest readings (count bound): a time before the oldest kept one can no longer be answered. */
  private drop(n: number): void {
    this.readings.splice(0, n);
    this.coveredFrom = Math.max(this.coveredFrom, this.readings[0]!.ts);
  }

  /**
   * The values at `at`: per key, the newest reading at or before `at` no older than `maxAgeMs`;
   * keys listed in `interpolate` take the value between the readings on both sides of `at` when
   * both exist within `maxAgeMs` of each other (longitudes across the 180° meridian, headings
   * across north).
   */
  answer(request: Pick<ReadingRequest, 'at' | 'maxAgeMs' | 'keys' | 'interpolate'>): ReadingResult {
    this.prune();
    const { at, maxAgeMs } = request;
    const horizon = Math.max(this.coveredFrom, this.now() - this.limits.maxAgeMs);
    if (at < horizon) return { kind: 'not_backfillable' };
    const list = this.readings;
    // The last reading at or before `at` (binary search: readings are in time order).
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.ts <= at) lo = mid + 1;
      else hi = mid;
    }
    const before = lo - 1;
    const values: Record<string, Value> = {};
    let newestUsed = -Infinity;
    let staleTs: number | undefined;
    let interpolated = false;
    let newerExists = false;
    for (const key of request.keys) {
      let i = before;
      while (i >= 0 && !(key in list[i]!.values)) i--;
      let j = before + 1;
      while (j < list.length && !(key in list[j]!.values)) j++;
      if (j < list.length) newerExists = true;
      if (i < 0) continue;
      const prev = list[i]!;
      if (at - prev.ts > maxAgeMs) {
        staleTs = Math.max(staleTs ?? -Infinity, prev.ts);
        continue;
      }
      let value = prev.values[key]!;
      const next = list[j];
      if (request.interpolate?.includes(key) && next && next.ts - prev.ts <= maxAgeMs && next.ts > prev.ts) {
        const mixed = interpolateValue(key, value, next.values[key]!, (at - prev.ts) / (next.ts - prev.ts));
        if (mixed !== undefined) {
          value = mixed;
          interpolated = true;
        }
      }
      values[key] = value;
      newestUsed = Math.max(newestUsed, prev.ts);
    }
    if (newestUsed === -Infinity) {
      if (staleTs !== undefined) return { kind: 'stale', newestTs: staleTs };
      return { kind: 'no_data' };
    }
    return {
      kind: 'reading',
      reading: { ts: interpolated ? at : newestUsed, values },
      provenance: newerExists ? 'buffered' : 'realtime',
    };
  }
}

/** How a key's value goes round: longitudes wrap at ±180°, headings and courses at 360°. */
function angleKind(key: string): 'longitude' | 'bearing' | null {
  const name = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  if (name === 'lon' || name === 'longitude' || name === 'long') return 'longitude';
  if (/heading|track|course|yaw|^hdg$|^cog$/.test(name)) return 'bearing';
  return null;
}

/** The value a fraction `f` of the way from `a` to `b`, the short way round for angles. */
export function interpolateValue(key: string, a: Value, b: Value, f: number): number | undefined {
  const x = typeof a === 'number' ? a : typeof a === 'string' ? Number(a) : NaN;
  const y = typeof b === 'number' ? b : typeof b === 'string' ? Number(b) : NaN;
  if (!Number.isFinite(x) || !Number.isFinite(y) || (typeof a === 'string' && a.trim() === '')) return undefined;
  const kind = angleKind(key);
  if (!kind) return x + (y - x) * f;
  let delta = ((((y - x) % 360) + 540) % 360) - 180; // in [-180, 180)
  if (delta === -180 && y > x) delta = 180;
  const v = x + delta * f;
  if (kind === 'longitude') return ((((v + 180) % 360) + 360) % 360) - 180;
  return ((v % 360) + 360) % 360;
}
