import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

describe('RateLimiter', () => {
  it('allows max requests per window and tells how long to wait after', () => {
    const limiter = new RateLimiter(2, 60_000);
    expect(limiter.take('a', 1000)).toBe(0);
    expect(limiter.take('a', 2000)).toBe(0);
    expect(limiter.take('a', 3000)).toBe(58_000);
    expect(limiter.take('b', 3000)).toBe(0);
    expect(limiter.take('a', 61_000)).toBe(0);
  });

  it('0 means no limit', () => {
    const limiter = new RateLimiter(0);
    for (let i = 0; i < 1000; i++) expect(limiter.take('a')).toBe(0);
  });
});
