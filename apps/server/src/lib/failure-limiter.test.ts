import { describe, expect, it } from 'vitest';
import { FailureLimiter } from './failure-limiter.js';

describe('FailureLimiter', () => {
  it('blocks a key after max failures within the window, and says for how long', () => {
    const limiter = new FailureLimiter(3, 60_000);
    const t0 = 1_000_000;
    limiter.fail('u:alice', t0);
    limiter.fail('u:alice', t0 + 1_000);
    expect(limiter.blockedFor('u:alice', t0 + 2_000)).toBe(0);
    limiter.fail('u:alice', t0 + 2_000);
    expect(limiter.blockedFor('u:alice', t0 + 2_000)).toBe(58_000);
    expect(limiter.blockedFor('u:bob', t0 + 2_000)).toBe(0);
  });

  it('forgets failures older than the window', () => {
    const limiter = new FailureLimiter(2, 10_000);
    limiter.fail('k', 0);
    limiter.fail('k', 5_000);
    expect(limiter.blockedFor('k', 9_000)).toBe(1_000);
    expect(limiter.blockedFor('k', 10_000)).toBe(0);
  });

  it('reset clears a key', () => {
    const limiter = new FailureLimiter(1, 10_000);
    limiter.fail('k', 0);
    expect(limiter.blockedFor('k', 1)).toBeGreaterThan(0);
    limiter.reset('k');
    expect(limiter.blockedFor('k', 1)).toBe(0);
  });
});
