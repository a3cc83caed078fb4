import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { wsPath, type WsUserChange } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../test/role-tokens.js';
import { publicationBarrier } from './testing/publication-barrier.js';
import { listenInRange, RawClient, scriptHello } from './testing/ws-test-client.js';

/**
 * `updateUsers` (docs/wire.md#channels): the Users screens of admins and cruise managers follow
 * user changes made by others. Only the id and the kind of change travel, never a password hash or
 * token; roles that may not list users receive nothing.
 */
describe.each(engines)('the updateUsers channel on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let users: RoleUsers;
  let admin: string;
  const clients: RawClient[] = [];
  const path = wsPath('updateUsers');

  const subscriber = async (token: string) => {
    const c = await RawClient.open(port);
    clients.push(c);
    const reply = await c.call(scriptHello(token, [path, wsPath('updateCustomVars')]));
    expect(reply.type).toBe('hello');
    return c;
  };
  const barrier = publicationBarrier(
    () => t,
    () => admin,
  );

  beforeAll(async () => {
    t = await createTestApp(engine, { realtime: { authRecheckMs: 0 } });
    port = await listenInRange(t.app);
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(() => t?.close());

  it('tells admins and cruise managers of a create, an update and a delete, with the id only', async () => {
    const a = await subscriber(admin);
    const cm = await subscriber(users.tokens.cruise_manager!);
    const created = await t.api('POST', '/users', {
      token: admin,
      body: {
        username: 'chanuser',
        fullname: 'C',
        email: 'chanuser@example.org',
        password: 'secret-pw',
        roles: ['event_watcher'],
      },
    });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { insertedId: string }).insertedId;
    expect((await t.api('PATCH', `/users/${id}`, { token: admin, body: { roles: ['event_logger'] } })).statusCode).toBe(
      204,
    );
    expect((await t.api('DELETE', `/users/${id}`, { token: admin })).statusCode).toBe(204);
    await barrier(a, cm);
    const expected: WsUserChange[] = [
      { id, change: 'create' },
      { id, change: 'update' },
      { id, change: 'delete' },
    ];
    expect(a.pubs(path)).toEqual(expected);
    expect(cm.pubs(path)).toEqual(expected);
  });

  for (const role of ['event_logger', 'event_watcher', 'event_manager', 'template_manager', 'guest'] as const) {
    it(`refuses the subscription of a ${role} (403)`, async () => {
      const c = await RawClient.open(port);
      clients.push(c);
      const reply = await c.call(scriptHello(users.tokens[role]!, [path]));
      expect(reply).toMatchObject({ statusCode: 403, path, payload: { message: 'Insufficient scope' } });
    });
  }

  it('tells of a self-registration and a profile change', async () => {
    const a = await subscriber(admin);
    const reg = await t.api('POST', '/auth/register', {
      body: { username: 'chanreg', fullname: 'R', email: 'chanreg@example.org', password: 'secret-pw' },
    });
    expect(reg.statusCode).toBe(201);
    const id = (reg.json() as { insertedId: string }).insertedId;
    const own = await t.login('chanreg', 'secret-pw');
    expect((await t.api('PATCH', '/auth/profile', { token: own, body: { fullname: 'Renamed' } })).statusCode).toBe(204);
    await barrier(a);
    expect(a.pubs(path)).toEqual([
      { id, change: 'create' },
      { id, change: 'update' },
    ]);
  });
});
