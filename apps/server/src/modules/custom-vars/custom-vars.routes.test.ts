import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../../test/role-tokens.js';
import { systemIds } from '../../seed/system.js';
import { CustomVarsService } from './custom-vars.service.js';
import { customVarsCache } from './custom-vars-cache.js';

const asnap = systemIds.asnapStatus;

describe.each(engines)('custom vars API on %s', (engine) => {
  let t: TestApp;
  let users: RoleUsers;
  let admin: string;
  let guest: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
    guest = users.tokens.guest!;
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.ctx.database.db
      .updateTable('custom_vars')
      .set({ custom_var_value: 'Off' })
      .where('id', '=', asnap)
      .execute();
    // Set by hand, past the service: the server's cached list would show it only after its lifetime.
    customVarsCache(t.ctx).invalidate();
  });

  const published = async (action: () => Promise<unknown>) => {
    const seen: unknown[] = [];
    const off = t.ctx.bus.subscribe('updateCustomVars', (p) => seen.push(p));
    try {
      await action();
    } finally {
      off();
    }
    return seen;
  };

  it('lists the seeded vars with string values', async () => {
    const res = await t.api('GET', '/custom_vars', { token: guest });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: systemIds.asnapStatus, custom_var_name: 'asnapStatus', custom_var_value: 'Off' },
      { id: systemIds.freeSpaceInBytes, custom_var_name: 'freeSpaceInBytes', custom_var_value: '0' },
      { id: systemIds.freeSpacePercentage, custom_var_name: 'freeSpacePercentage', custom_var_value: '0' },
    ]);
  });

  it('filters by one name or by repeated name keys, exact match', async () => {
    const one = await t.api('GET', '/custom_vars?name=asnapStatus', { token: admin });
    expect((one.json() as Array<{ id: string }>).map((v) => v.id)).toEqual([asnap]);
    const two = await t.api('GET', '/custom_vars?name=asnapStatus&name=freeSpacePercentage', { token: admin });
    expect((two.json() as Array<{ custom_var_name: string }>).map((v) => v.custom_var_name)).toEqual([
      'asnapStatus',
      'freeSpacePercentage',
    ]);
    for (const query of ['?name=asnap', '?name=ASNAPSTATUS', '?name=nothing&name=else']) {
      const none = await t.api('GET', `/custom_vars${query}`, { token: admin });
      expect(none.statusCode, query).toBe(404);
      expect(none.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'No records found' });
    }
    const unknown = await t.api('GET', '/custom_vars?names=asnapStatus', { token: admin });
    expect(unknown.json()).toMatchObject({ statusCode: 400, message: '"names" is not allowed' });
  });

  it('gets one var by id and answers 404 for an unknown id, 400 for a bad one', async () => {
    expect((await t.api('GET', `/custom_vars/${asnap}`, { token: guest })).json()).toEqual({
      id: asnap,
      custom_var_name: 'asnapStatus',
      custom_var_value: 'Off',
    });
    const missing = await t.api('GET', '/custom_vars/59810167212b348aed7fa900', { token: guest });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: 'No record found for id: 59810167212b348aed7fa900' });
    expect((await t.api('GET', '/custom_vars/short', { token: guest })).statusCode).toBe(400);
  });

  it('sets asnapStatus for an event logger and publishes the new value', async () => {
    const seen = await published(async () => {
      const res = await t.api('PATCH', `/custom_vars/${asnap}`, {
        token: users.tokens.event_logger!,
        body: { custom_var_value: 'On' },
      });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
    });
    expect(seen).toEqual([{ id: asnap, custom_var_name: 'asnapStatus', custom_var_value: 'On' }]);
    expect((await t.api('GET', `/custom_vars/${asnap}`, { token: guest })).json()).toMatchObject({
      custom_var_value: 'On',
    });
  });

  it('accepts the name along with the value, as the web client sends both', async () => {
    const res = await t.api('PATCH', `/custom_vars/${asnap}`, {
      token: admin,
      body: { custom_var_name: 'asnapStatus', custom_var_value: 'On' },
    });
    expect(res.statusCode).toBe(204);
    // A body without a content type is JSON (Python scripts send it so).
    const script = await t.app.inject({
      method: 'PATCH',
      url: `/sealog-server/api/v1/custom_vars/${asnap}`,
      headers: { authorization: guest },
      payload: JSON.stringify({ custom_var_value: 'Off' }),
    });
    expect(script.statusCode).toBe(204);
    expect((await t.api('GET', `/custom_vars/${asnap}`, { token: guest })).json()).toMatchObject({
      custom_var_value: 'Off',
    });
  });

  it('rejects bad updates with a clear 400 and changes nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ custom_var_value: 'on' }, '"custom_var_value" must be one of [On, Off]'],
      [{ custom_var_value: '' }, '"custom_var_value" must be one of [On, Off]'],
      [{ custom_var_value: 1 }, '"custom_var_value" must be a string'],
      [{ custom_var_value: true }, '"custom_var_value" must be a string'],
      [{ custom_var_name: 'asnap', custom_var_value: 'On' }, '"custom_var_name" cannot be changed (it is asnapStatus)'],
      [{}, '"value" must have at least 1 key'],
      [{ custom_var_value: 'On', extra: 1 }, '"extra" is not allowed'],
    ];
    const seen = await published(async () => {
      for (const [body, message] of cases) {
        const res = await t.api('PATCH', `/custom_vars/${asnap}`, { token: admin, body });
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message });
      }
    });
    expect(seen).toEqual([]);
    expect((await t.api('GET', `/custom_vars/${asnap}`, { token: admin })).json()).toMatchObject({
      custom_var_name: 'asnapStatus',
      custom_var_value: 'Off',
    });
    const missing = await t.api('PATCH', '/custom_vars/59810167212b348aed7fa900', {
      token: admin,
      body: { custom_var_value: 'On' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: 'No record found for id: 59810167212b348aed7fa900' });
  });

  it('refuses client writes to the server-owned free-space vars, even from an admin', async () => {
    for (const [id, name] of [
      [systemIds.freeSpaceInBytes, 'freeSpaceInBytes'],
      [systemIds.freeSpacePercentage, 'freeSpacePercentage'],
    ] as const) {
      const res = await t.api('PATCH', `/custom_vars/${id}`, { token: admin, body: { custom_var_value: '42' } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        message: `${name} is set by the server and cannot be changed`,
      });
    }
  });

  it('lets the server set a var by name and publishes the new reading', async () => {
    const service = new CustomVarsService(t.ctx);
    const seen = await published(async () => {
      expect(await service.setByServer('freeSpaceInBytes', '38400000000')).toBe(true);
      expect(await service.setByServer('noSuchVar', '1')).toBe(false);
    });
    expect(seen).toEqual([
      { id: systemIds.freeSpaceInBytes, custom_var_name: 'freeSpaceInBytes', custom_var_value: '38400000000' },
    ]);
    const res = await t.api('GET', '/custom_vars?name=freeSpaceInBytes', { token: guest });
    expect(res.json()).toEqual([
      { id: systemIds.freeSpaceInBytes, custom_var_name: 'freeSpaceInBytes', custom_var_value: '38400000000' },
    ]);
  });

  it('lets watchers read but not write, and needs a valid token', async () => {
    const watcher = users.tokens.event_watcher!;
    expect((await t.api('GET', '/custom_vars', { token: watcher })).statusCode).toBe(200);
    const write = await t.api('PATCH', `/custom_vars/${asnap}`, { token: watcher, body: { custom_var_value: 'On' } });
    expect(write.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Insufficient scope' });
    expect((await t.api('GET', '/custom_vars', {})).json()).toMatchObject({
      statusCode: 401,
      message: 'Missing authentication',
    });
    const disabled = await t.api('PATCH', `/custom_vars/${asnap}`, {
      token: users.tokens.disabled!,
      body: { custom_var_value: 'On' },
    });
    expect(disabled.json()).toMatchObject({ statusCode: 401, message: 'Invalid credentials' });
    expect((await t.api('GET', `/custom_vars/${asnap}`, { token: admin })).json()).toMatchObject({
      custom_var_value: 'Off',
    });
  });
});
