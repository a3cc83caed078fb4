import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { wsPath } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../test/test-app.js';
import { listenInRange, RawClient, scriptHello, sleep } from '../realtime/testing/ws-test-client.js';
import { systemIds } from '../seed/system.js';
import { AsnapService } from './asnap.js';

const newEvents = wsPath('newEvents');

describe.each(engines)('built-in ASNAP on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let admin: string;
  const clients: RawClient[] = [];

  const setAsnap = async (value: 'On' | 'Off', token = admin) => {
    const res = await t.api('PATCH', `/custom_vars/${systemIds.asnapStatus}`, {
      token,
      body: { custom_var_name: 'asnapStatus', custom_var_value: value },
    });
    expect(res.statusCode).toBe(204);
  };
  const asnapCount = async () => {
    const res = await t.api('GET', '/events/count?value=ASNAP', { token: admin });
    return (res.json() as { events: number }).events;
  };

  beforeAll(async () => {
    t = await createTestApp(engine, { asnap: { enabled: true, intervalSeconds: 1 } });
    port = await listenInRange(t.app);
    admin = await t.login('admin', 'demo');
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await setAsnap('Off');
  });
  afterAll(() => t?.close());

  it('logs an ASNAP event every interval while asnapStatus is On, published like any new event', async () => {
    const c = await RawClient.open(port);
    clients.push(c);
    expect((await c.call(scriptHello(admin, [newEvents]))).type).toBe('hello');
    const first = c.nextPub(newEvents);
    await setAsnap('On');
    const event = (await first) as Record<string, unknown>;
    expect(event).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      event_author: 'asnap',
      event_value: 'ASNAP',
      event_options: [],
      event_free_text: '',
    });
    // And again one interval later.
    const second = (await c.nextPub(newEvents)) as Record<string, unknown>;
    expect(second.event_value).toBe('ASNAP');
    expect(second.id).not.toBe(event.id);
    const stored = await t.api('GET', `/events/${event.id as string}`, { token: admin });
    expect(stored.json()).toEqual(event);
  });

  it('stops at once when switched Off', async () => {
    await setAsnap('On');
    await sleep(1500);
    await setAsnap('Off');
    // Let a snapshot that was already being written finish, then nothing more may come.
    await sleep(300);
    const settled = await asnapCount();
    expect(settled).toBeGreaterThan(0);
    await sleep(2500);
    expect(await asnapCount()).toBe(settled);
  });

  it('resumes from the stored status when it starts', async () => {
    await t.ctx.database.db
      .updateTable('custom_vars')
      .set({ custom_var_value: 'On' })
      .where('id', '=', systemIds.asnapStatus)
      .execute();
    let logged = 0;
    const service = new AsnapService(t.ctx, async () => {
      logged++;
    });
    await service.start();
    await sleep(100);
    expect(service.running).toBe(true);
    expect(logged).toBeGreaterThan(0);
    await service.stop();
    expect(service.running).toBe(false);
  });
});

describe('ASNAP disabled in the configuration', () => {
  it('logs nothing when asnapStatus is On', async () => {
    const t = await createTestApp('sqlite', { asnap: { enabled: false, intervalSeconds: 1 } });
    try {
      const admin = await t.login('admin', 'demo');
      const res = await t.api('PATCH', `/custom_vars/${systemIds.asnapStatus}`, {
        token: admin,
        body: { custom_var_value: 'On' },
      });
      expect(res.statusCode).toBe(204);
      await sleep(1500);
      const count = await t.api('GET', '/events/count?value=ASNAP', { token: admin });
      expect(count.json()).toEqual({ events: 0 });
    } finally {
      await t.close();
    }
  });
});

describe('built-in ASNAP beside an external ASNAP script', () => {
  it("stays quiet while another source's ASNAP events arrive, says so, and resumes after them", async () => {
    const t = await createTestApp('sqlite', { asnap: { enabled: true, intervalSeconds: 1, externalQuietSeconds: 2 } });
    const infos: string[] = [];
    const info = t.ctx.log.info.bind(t.ctx.log);
    t.ctx.log.info = ((...args: unknown[]) => {
      infos.push(String(args.find((a) => typeof a === 'string') ?? ''));
      return (info as (...a: unknown[]) => void)(...args);
    }) as typeof t.ctx.log.info;
    try {
      const admin = await t.login('admin', 'demo');
      const byAuthor = async () => {
        const res = await t.api('GET', '/events?value=ASNAP', { token: admin });
        const events = res.statusCode === 200 ? (res.json() as { event_author: string }[]) : [];
        return {
          builtIn: events.filter((e) => e.event_author === 'asnap').length,
          script: events.filter((e) => e.event_author === 'admin').length,
        };
      };
      // What sealog_asnap posts: no author, so the token's user is the author.
      const scriptSnapshot = async () => {
        const res = await t.api('POST', '/events', {
          token: admin,
          body: { event_value: 'ASNAP', event_options: [], event_free_text: '' },
        });
        expect(res.statusCode).toBe(201);
      };
      await scriptSnapshot();
      const res = await t.api('PATCH', `/custom_vars/${systemIds.asnapStatus}`, {
        token: admin,
        body: { custom_var_value: 'On' },
      });
      expect(res.statusCode).toBe(204);
      // The script keeps posting for 4 s; the built-in one (every 1 s) logs nothing meanwhile.
      for (let i = 0; i < 4; i++) {
        await sleep(1000);
        await scriptSnapshot();
      }
      expect(await byAuthor()).toEqual({ builtIn: 0, script: 5 });
      expect(infos.some((m) => m.startsWith('built-in ASNAP quiet'))).toBe(true);
      // The script stops: after the quiet window the built-in one logs again.
      await sleep(3500);
      expect((await byAuthor()).builtIn).toBeGreaterThan(0);
      expect(infos.some((m) => m.startsWith('built-in ASNAP resumes'))).toBe(true);
    } finally {
      await t.close();
    }
  });
});
