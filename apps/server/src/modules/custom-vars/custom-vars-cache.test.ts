import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CustomVar } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { openDatabase } from '../../db/database.js';
import { LocalBus } from '../../realtime/bus.js';
import { systemIds } from '../../seed/system.js';
import { CustomVarsCache, customVarsCacheLifetimeMs } from './custom-vars-cache.js';
import { CustomVarsService } from './custom-vars.service.js';

const asnap = systemIds.asnapStatus;
const asnapValue = (res: { json(): unknown }) =>
  (res.json() as CustomVar[]).find((v) => v.id === asnap)?.custom_var_value;

describe.each(engines)('the cached custom vars on %s', (engine) => {
  let t: TestApp;
  let admin: string;

  beforeEach(async () => {
    // The clock stands still unless a test moves it: a list read once would be kept for good, so
    // every change seen below was seen because the cache was dropped.
    vi.useFakeTimers({ toFake: ['Date'] });
    t = await createTestApp(engine);
    admin = await t.login('admin', 'demo');
  });
  afterEach(async () => {
    vi.useRealTimers();
    await t.close();
  });

  const list = () => t.api('GET', '/custom_vars', { token: admin });
  const patch = (value: string) =>
    t.api('PATCH', `/custom_vars/${asnap}`, { token: admin, body: { custom_var_value: value } });

  it('a change through the API shows on the very next list and get', async () => {
    expect(asnapValue(await list())).toBe('Off');
    expect((await patch('On')).statusCode).toBe(204);
    expect(asnapValue(await list())).toBe('On');
    expect((await t.api('GET', `/custom_vars/${asnap}`, { token: admin })).json()).toMatchObject({
      custom_var_value: 'On',
    });
    const named = await t.api('GET', '/custom_vars?name=asnapStatus', { token: admin });
    expect(named.json()).toEqual([{ id: asnap, custom_var_name: 'asnapStatus', custom_var_value: 'On' }]);
  });

  it("the server's own writes (free space) show at once", async () => {
    expect((await t.api('GET', '/custom_vars?name=freeSpaceInBytes', { token: admin })).json()).toMatchObject([
      { custom_var_value: '0' },
    ]);
    await new CustomVarsService(t.ctx).setByServer('freeSpaceInBytes', '12345');
    expect((await t.api('GET', '/custom_vars?name=freeSpaceInBytes', { token: admin })).json()).toMatchObject([
      { custom_var_value: '12345' },
    ]);
  });

  it('a change made by hand in the database shows once the lifetime has passed', async () => {
    expect(asnapValue(await list())).toBe('Off');
    await t.ctx.database.db
      .updateTable('custom_vars')
      .set({ custom_var_value: 'On' })
      .where('id', '=', asnap)
      .execute();
    expect(asnapValue(await list())).toBe('Off');
    vi.setSystemTime(Date.now() + customVarsCacheLifetimeMs + 1);
    expect(asnapValue(await list())).toBe('On');
  });
});

describe('CustomVarsCache', () => {
  const row = (value: string): CustomVar => ({ id: asnap, custom_var_name: 'asnapStatus', custom_var_value: value });

  it('callers missing the list at once share one read; after a change the next caller reads again', async () => {
    const cache = new CustomVarsCache({ bus: new LocalBus() });
    let value = 'Off';
    let release!: () => void;
    const read = vi.fn(
      () =>
        new Promise<CustomVar[]>((resolve) => {
          const v = value;
          release = () => resolve([row(v)]);
        }),
    );
    const first = cache.list(read);
    const second = cache.list(read);
    release();
    expect((await Promise.all([first, second])).map((l) => l[0]!.custom_var_value)).toEqual(['Off', 'Off']);
    expect(read).toHaveBeenCalledTimes(1);
    // A change while a read is under way: a caller after it does not join that read.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + customVarsCacheLifetimeMs + 1);
      const stale = cache.list(read);
      const releaseStale = release;
      value = 'On';
      cache.invalidate();
      const fresh = cache.list(read);
      releaseStale();
      release();
      expect((await stale)[0]!.custom_var_value).toBe('Off');
      expect((await fresh)[0]!.custom_var_value).toBe('On');
      expect(read).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps no read that was under way when a change arrived', async () => {
    const bus = new LocalBus();
    const cache = new CustomVarsCache({ bus });
    let release!: () => void;
    const slowRead = cache.list(
      () =>
        new Promise<CustomVar[]>((resolve) => {
          release = () => resolve([row('Off')]);
        }),
    );
    // Another writer committed 'On' while the read above was under way (it saw the row before).
    bus.publish('updateCustomVars', row('On'));
    release();
    expect((await slowRead)[0]!.custom_var_value).toBe('Off');
    const read = vi.fn(async () => [row('On')]);
    expect((await cache.list(read))[0]!.custom_var_value).toBe('On');
    expect(read).toHaveBeenCalledTimes(1);
    // Kept now, and callers get copies they may change.
    const again = await cache.list(read);
    again[0]!.custom_var_value = 'changed by a caller';
    expect((await cache.list(read))[0]!.custom_var_value).toBe('On');
    expect(read).toHaveBeenCalledTimes(1);
  });
});

const url = process.env.TEST_DATABASE_URL;

/**
 * Two servers on one PostgreSQL schema, each with its own LISTEN/NOTIFY bus (as two processes
 * have): a change made through one shows on the other's next read once the notification arrived,
 * long before the lifetime would have dropped the list.
 */
describe.skipIf(!url)('the cached custom vars across servers on one PostgreSQL database', () => {
  const schema = `t_cvcache_${process.pid}_${Date.now().toString(36)}`;

  afterEach(async () => {
    vi.useRealTimers();
    const admin = openDatabase({ url: url!, poolSize: 1 });
    await admin.db.schema.dropSchema(schema).ifExists().cascade().execute();
    await admin.close();
  });

  const server = () => createTestApp('postgres', {}, openDatabase({ url: url!, schema, poolSize: 2 }));

  it('a PATCH through server A shows on server B without waiting for the lifetime', async () => {
    const a = await server();
    const b = await server();
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      const login = await a.app.inject({
        method: 'POST',
        url: '/sealog-server/api/v1/auth/login',
        payload: { username: 'admin', password: 'demo' },
      });
      const token = (login.json() as { token: string }).token;
      const headers = { authorization: `Bearer ${token}` };
      const listOnB = () => b.app.inject({ method: 'GET', url: '/sealog-server/api/v1/custom_vars', headers });
      expect(asnapValue(await listOnB())).toBe('Off');
      const res = await a.app.inject({
        method: 'PATCH',
        url: `/sealog-server/api/v1/custom_vars/${asnap}`,
        headers,
        payload: { custom_var_value: 'On' },
      });
      expect(res.statusCode).toBe(204);
      // The clock stands still, so only the notification can make B read again.
      const deadline = performance.now() + 5000;
      let seen = asnapValue(await listOnB());
      while (seen !== 'On' && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        seen = asnapValue(await listOnB());
      }
      expect(seen).toBe('On');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
