import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyReadQueue } from '../src/plugins/heavy-reads.js';
import { createTestApp, engines, type TestApp } from './test-app.js';

/** Whether a promise has settled by the time everything else that can run has run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  return done;
}

describe.each(engines)('heavy reads on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let science: string;

  beforeAll(async () => {
    t = await createTestApp(engine, { heavyReads: { concurrent: 1, queuePerCaller: 1, queueTotal: 10 } });
    admin = await t.login('admin', 'demo');
    const made = await t.api('POST', '/users', {
      token: admin,
      body: {
        username: 'science',
        fullname: 'S',
        email: 's@example.org',
        password: 'secret-pw',
        roles: ['event_watcher'],
      },
    });
    expect(made.statusCode).toBe(201);
    science = await t.login('science', 'secret-pw');
    for (let i = 0; i < 5; i++) {
      expect((await t.api('POST', '/events', { token: admin, body: { event_value: `E${i}` } })).statusCode).toBe(201);
    }
  });
  afterAll(() => t?.close());

  it('queues exports, CSV and full lists behind a busy slot while light reads and writes go on', async () => {
    const queue = heavyReadQueue(t.ctx);
    // Another caller's export holds the only slot.
    const busy = queue.acquire('someone else');
    const releaseBusy = await busy.granted;

    const exported = t.api('GET', '/event_exports', { token: science });
    const csv = t.api('GET', '/events?format=csv', { token: admin });
    // Both reach the queue once authenticated (on PostgreSQL that takes a round trip or two), and wait.
    await vi.waitFor(() => expect(queue.stats).toEqual({ running: 1, waiting: 2 }));
    expect(await settled(exported)).toBe(false);
    expect(await settled(csv)).toBe(false);

    // Light requests never wait for the queue.
    const page = await t.api('GET', '/events?limit=2', { token: science });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toHaveLength(2);
    expect((await t.api('GET', '/events/count', { token: science })).statusCode).toBe(200);
    expect((await t.api('POST', '/events', { token: admin, body: { event_value: 'WHILE' } })).statusCode).toBe(201);

    // The same caller's next heavy read finds its share of the queue full.
    const refused = await t.api('GET', '/events', { token: science });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'Too many exports and full lists are waiting, try again in 5 seconds',
    });

    releaseBusy();
    const [e, c] = await Promise.all([exported, csv]);
    expect(e.statusCode).toBe(200);
    expect(e.json()).toHaveLength(6);
    expect(c.statusCode).toBe(200);
    expect(c.body.split('\n').filter(Boolean)).toHaveLength(7);
    // Every slot is given back once the answers are sent, also for an answer that is an error.
    expect(queue.stats).toEqual({ running: 0, waiting: 0 });
    expect((await t.api('GET', '/events?value=NOTHING', { token: science })).statusCode).toBe(404);
    expect(queue.stats).toEqual({ running: 0, waiting: 0 });
  });
});
