import Fastify from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { TcpProxy } from '../../test/tcp-proxy.js';
import { PgBus } from './pg-bus.js';
import { registerPublishBarrier } from './publish-barrier.js';

const url = process.env.TEST_DATABASE_URL;
const log = pino({ level: 'silent' });

/**
 * A write's answer and its notification to the other hosts (docs/deployment.md#what-a-2xx-promises-across-hosts):
 * host A's bus reaches PostgreSQL over a slow link (a proxy adding 200 ms each way), A answers a
 * write that published an event, and right after the answer A's link dies, as it does when the
 * host is killed. With the barrier, the answer came after the notification had left, so host B
 * still hears of the event; without it, the notification dies with the link.
 */
describe.skipIf(!url)('publish barrier', () => {
  const closers: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  const setUp = async (barrier: boolean) => {
    const target = new URL(url!);
    const proxy = new TcpProxy(Number(target.port || 5432), { delayMs: 200 });
    await proxy.listen();
    closers.push(() => proxy.close());
    const viaProxy = new URL(url!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    // A schema name of its own scopes the notification channel: other suites on this database hear nothing.
    const schema = `t_barrier_${process.pid}_${Date.now().toString(36)}`;
    const hostA = new PgBus({ url: viaProxy.toString(), schema, log });
    const hostB = new PgBus({ url: url!, schema, log });
    await hostA.start();
    await hostB.start();
    closers.push(
      () => hostB.close(),
      () => hostA.close(),
    );
    const heard: string[] = [];
    hostB.subscribe('newEvents', (e) => heard.push(e.id));

    const app = Fastify({ logger: false });
    if (barrier) registerPublishBarrier(app, hostA);
    app.post('/events', async () => {
      hostA.publish('newEvents', {
        id: 'a1',
        ts: '2026-11-29T00:00:00.000Z',
        event_author: 'test',
        event_value: 'FISH',
        event_options: [],
        event_free_text: '',
      });
      return { insertedId: 'a1' };
    });
    closers.push(() => app.close());
    return { proxy, heard, app };
  };

  it('answers a write after its notification left, so another host hears it though the writer dies', async () => {
    const { proxy, heard, app } = await setUp(true);
    const res = await app.inject({ method: 'POST', url: '/events' });
    expect(res.statusCode).toBe(200);
    proxy.cut();
    await new Promise((r) => setTimeout(r, 1000));
    expect(heard).toEqual(['a1']);
  });

  it('without it, the notification dies with the writer: the case the barrier exists for', async () => {
    const { proxy, heard, app } = await setUp(false);
    const res = await app.inject({ method: 'POST', url: '/events' });
    expect(res.statusCode).toBe(200);
    proxy.cut();
    await new Promise((r) => setTimeout(r, 1000));
    expect(heard).toEqual([]);
  });
});
