import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyReadQueue, heavyRoutes } from '../src/plugins/heavy-reads.js';
import { createCruise, createLowering } from './api-fixtures.js';
import { createTestApp, engines, type TestApp } from './test-app.js';

const api = '/sealog-server/api/v1';

/**
 * GET routes that read event data and never wait in the queue, each with why it stays light. With
 * the plugin's `heavyRoutes`, every event-data read in the route table must be in one of the two.
 */
const lightReads: Record<string, string> = {
  '/events/count': 'a count on the index',
  '/events/bycruise/:id/count': 'a count on the index',
  '/events/bylowering/:id/count': 'a count on the index',
  '/events/:id': 'one event',
  '/event_exports/:id': 'one event with its aux data',
  '/event_aux_data/:id': 'one aux record',
  '/completeness/newest': 'the newest event alone',
  '/events/:id/video': "one event's recordings",
  '/aux_managers/status': "the managers' states, no events",
  '/aux_managers/provenance': "one event's provenance",
};

/** The query that makes a heavy route's request heavy (none: the route's plain request is). */
const heavyQuery: Record<string, string> = {
  '/lowerings/:id/completeness': 'events=true',
  '/audit': 'format=csv',
};

/** The same routes' requests that stay light. */
const lightRequests = (ids: { cruise: string; lowering: string; event: string }) => [
  `/events?limit=10`,
  `/event_aux_data?eventID=${ids.event}`,
  `/event_aux_data/bylowering/${ids.lowering}?limit=10`,
  `/lowerings/${ids.lowering}/completeness`,
  `/audit?limit=5`,
];

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

describe('the heavy-read list, generated from the route table', () => {
  let t: TestApp;
  let admin: string;
  const ids = { cruise: '', lowering: '', event: '' };

  beforeAll(async () => {
    t = await createTestApp('sqlite', { heavyReads: { concurrent: 1, queuePerCaller: 50, queueTotal: 50 } });
    admin = await t.login('admin', 'demo');
    ids.cruise = await createCruise(t, admin);
    ids.lowering = await createLowering(t, admin);
    const event = await t.api('POST', '/events', { token: admin, body: { event_value: 'HEAVY' } });
    ids.event = (event.json() as { insertedId: string }).insertedId;
  });
  afterAll(() => t?.close());

  const apiGets = () =>
    t.routes
      .filter((r) => r.method === 'GET' && r.url.startsWith(`${api}/`))
      .map((r) => ({ ...r, path: r.url.slice(api.length) }));
  const withIds = (path: string) =>
    path
      .replace(/\/(cruises|bycruise)\/:id/, `/$1/${ids.cruise}`)
      .replace(/\/(lowerings|bylowering)\/:id/, `/$1/${ids.lowering}`);

  it('classes every read of event data as heavy or light, and lists no route that does not exist', () => {
    const paths = new Set(apiGets().map((r) => r.path));
    const unclassed = apiGets()
      .filter((r) => r.config.access === 'events' && !(r.path in heavyRoutes) && !(r.path in lightReads))
      .map((r) => r.path);
    expect(unclassed, 'add these to heavyRoutes (plugins/heavy-reads.ts) or to lightReads here').toEqual([]);
    expect(Object.keys(heavyRoutes).filter((p) => !paths.has(p))).toEqual([]);
    expect(Object.keys(lightReads).filter((p) => !paths.has(p))).toEqual([]);
  });

  it('makes every heavy route wait for a slot, and lets its light requests through', async () => {
    const queue = heavyReadQueue(t.ctx);
    const releaseBusy = await queue.acquire('someone else').granted;
    const waiting: Array<[string, Promise<{ statusCode: number }>]> = [];
    for (const path of Object.keys(heavyRoutes)) {
      const query = heavyQuery[path];
      const url = withIds(path) + (query ? `?${query}` : '');
      waiting.push([url, t.api('GET', url, { token: admin })]);
      // Each one reaches the queue and stays there while the slot is taken.
      await vi.waitFor(() => expect(queue.stats.waiting, url).toBe(waiting.length));
    }
    for (const url of lightRequests(ids)) {
      expect((await t.api('GET', url, { token: admin })).statusCode, url).toBeLessThan(500);
    }
    expect(queue.stats).toEqual({ running: 1, waiting: waiting.length });
    releaseBusy();
    for (const [url, answer] of waiting) expect((await answer).statusCode, url).toBeLessThan(500);
    expect(queue.stats).toEqual({ running: 0, waiting: 0 });
  });
});
