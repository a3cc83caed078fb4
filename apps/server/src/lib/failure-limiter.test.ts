import { describe, expect, it } from 'vitest';
import { BackoffLimiter, FailureLimiter } from './failure-limiter.js';

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

describe('BackoffLimiter', () => {
  it('lets the first failures through, then doubles the wait up to the longest', () => {
    const limiter = new BackoffLimiter(3, 8_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(limiter.blockedFor('k', t0)).toBe(0);
      limiter.fail('k', t0);
    }
    expect(limiter.blockedFor('k', t0)).toBe(1_000);
    limiter.fail('k', t0 + 1_000);
    expect(limiter.blockedFor('k', t0 + 1_000)).toBe(2_000);
    limiter.fail('k', t0 + 3_000);
    expect(limiter.blockedFor('k', t0 + 3_000)).toBe(4_000);
    limiter.fail('k', t0 + 7_000);
    expect(limiter.blockedFor('k', t0 + 7_000)).toBe(8_000);
    limiter.fail('k', t0 + 15_000);
    expect(limiter.blockedFor('k', t0 + 15_000)).toBe(8_000);
    expect(limiter.blockedFor('other', t0 + 15_000)).toBe(0);
  });

  it('forgets a key quiet for twice the longest wait, and reset clears it', () => {
    const limiter = new BackoffLimiter(1, 5_000);
    limiter.fail('k', 0);
    limiter.fail('k', 0);
    expect(limiter.failures('k', 10_000)).toBe(2);
    expect(limiter.failures('k', 10_001)).toBe(0);
    limiter.fail('j', 0);
    limiter.reset('j');
    expect(limiter.blockedFor('j', 1)).toBe(0);
  });
});
