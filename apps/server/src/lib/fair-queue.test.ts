import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.js';
import { FairQueue } from './fair-queue.js';

/** Records the order in which waiters are granted. */
function harness(limits: ConstructorParameters<typeof FairQueue>[0]) {
  const queue = new FairQueue(limits);
  const order: string[] = [];
  const releases = new Map<string, () => void>();
  const take = (caller: string, label: string) => {
    const { granted, cancel } = queue.acquire(caller);
    void granted.then((release) => {
      order.push(label);
      releases.set(label, release);
    });
    return cancel;
  };
  const settle = () => new Promise((r) => setImmediate(r));
  return { queue, order, releases, take, settle };
}

describe('FairQueue', () => {
  it('runs at most `concurrent` at once; the rest wait in order and start as slots free', async () => {
    const h = harness({ concurrent: 2, queuePerCaller: 10, queueTotal: 10 });
    for (const n of [1, 2, 3, 4]) h.take('a', `a${n}`);
    await h.settle();
    expect(h.order).toEqual(['a1', 'a2']);
    expect(h.queue.stats).toEqual({ running: 2, waiting: 2 });
    h.releases.get('a2')!();
    h.releases.get('a2')!(); // a second release of the same slot frees nothing more
    await h.settle();
    expect(h.order).toEqual(['a1', 'a2', 'a3']);
    h.releases.get('a1')!();
    await h.settle();
    expect(h.order).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(h.queue.stats).toEqual({ running: 2, waiting: 0 });
  });

  it("gives a caller's single request the next slot before another caller's hundred", async () => {
    const h = harness({ concurrent: 2, queuePerCaller: 200, queueTotal: 500 });
    for (let n = 1; n <= 100; n++) h.take('bulk', `bulk${n}`);
    h.take('console', 'console1');
    await h.settle();
    expect(h.order).toEqual(['bulk1', 'bulk2']);
    h.releases.get('bulk1')!();
    await h.settle();
    expect(h.order).toEqual(['bulk1', 'bulk2', 'console1']);
  });

  it('alternates between waiting callers that run the same number', async () => {
    const h = harness({ concurrent: 1, queuePerCaller: 10, queueTotal: 10 });
    h.take('x', 'x0');
    for (const n of [1, 2, 3]) h.take('a', `a${n}`);
    for (const n of [1, 2]) h.take('b', `b${n}`);
    h.take('c', 'c1');
    await h.settle();
    for (let i = 0; i < 6; i++) {
      h.releases.get(h.order.at(-1)!)!();
      await h.settle();
    }
    expect(h.order).toEqual(['x0', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('refuses with 503 and Retry-After past the per-caller and the total bound', async () => {
    const h = harness({ concurrent: 1, queuePerCaller: 2, queueTotal: 3 });
    h.take('a', 'a1');
    h.take('a', 'a2');
    h.take('a', 'a3');
    let refused: unknown;
    try {
      h.take('a', 'a4');
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).toBody()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Too many exports and full lists are waiting, try again in 5 seconds',
    });
    expect((refused as AppError).headers).toEqual({ 'retry-after': '5' });
    h.take('b', 'b1'); // another caller still has room: 3 waiting in all
    expect(() => h.take('c', 'c1')).toThrow(AppError);
    expect(h.queue.stats).toEqual({ running: 1, waiting: 3 });
  });

  it('forgets a waiter that is cancelled; a cancel after the grant does nothing', async () => {
    const h = harness({ concurrent: 1, queuePerCaller: 5, queueTotal: 5 });
    const first = h.take('a', 'a1');
    const gone = h.take('b', 'b1');
    h.take('c', 'c1');
    expect(gone()).toBe(true);
    expect(gone()).toBe(false);
    expect(first()).toBe(false);
    await h.settle();
    h.releases.get('a1')!();
    await h.settle();
    expect(h.order).toEqual(['a1', 'c1']);
    expect(h.queue.stats).toEqual({ running: 1, waiting: 0 });
  });
});
