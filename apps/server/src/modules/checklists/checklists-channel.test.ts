import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { wsPath, type ChecklistRun, type ChecklistRunMessage } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../../test/role-tokens.js';
import { createLowering } from '../../../test/api-fixtures.js';
import { publicationBarrier } from '../../realtime/testing/publication-barrier.js';
import { listenInRange, RawClient, scriptHello } from '../../realtime/testing/ws-test-client.js';

/**
 * The checklists channel (docs/checklists.md#live-updates): every change of a run goes out as
 * `{lowering_id, run}`, to those who may see that lowering only.
 */
describe.each(engines)('checklists channel with access control on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let users: RoleUsers;
  let admin: string;
  const clients: RawClient[] = [];
  const barrier = publicationBarrier(
    () => t,
    () => admin,
  );
  const open = async (token: string) => {
    const c = await RawClient.open(port);
    clients.push(c);
    const reply = await c.call(scriptHello(token, [wsPath('checklists'), wsPath('updateCustomVars')]));
    expect(reply.type).toBe('hello');
    return c;
  };

  beforeAll(async () => {
    t = await createTestApp(engine, {
      useAccessControl: true,
      checklistIntervalSeconds: 0,
      realtime: { authRecheckMs: 0 },
    });
    port = await listenInRange(t.app);
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(() => t?.close());

  it('pushes a tick to those who may see the lowering, not to others', async () => {
    const lowering = await createLowering(t, admin, { lowering_access_list: [users.ids.event_watcher!] });
    const created = await t.api('POST', '/checklists', {
      token: admin,
      body: {
        name: 'Post-dive',
        phase: 'post_dive',
        items: [
          { id: 'video', label: 'Video copied', kind: 'manual' },
          { id: 'log', label: 'Log written', kind: 'manual' },
        ],
      },
    });
    expect(created.statusCode).toBe(201);
    const [run] = (await t.api('GET', `/lowerings/${lowering}/checklists`, { token: admin })).json() as ChecklistRun[];
    // The REST rule first: a user not on the list cannot read the runs.
    expect(
      (await t.api('GET', `/lowerings/${lowering}/checklists`, { token: users.tokens.event_logger! })).statusCode,
    ).toBe(401);

    const listed = await open(users.tokens.event_watcher!);
    const unlisted = await open(users.tokens.event_logger!);
    const a = await open(admin);
    const tick = await t.api('PATCH', `/lowerings/${lowering}/checklists/${run!.id}/items/video`, {
      token: admin,
      body: { state: 'done' },
    });
    expect(tick.statusCode, tick.body).toBe(200);
    await barrier(listed, unlisted, a);

    for (const c of [listed, a]) {
      const [message] = c.pubs(wsPath('checklists')) as ChecklistRunMessage[];
      expect(message).toMatchObject({ lowering_id: lowering, run: { id: run!.id, state: 'open' } });
      expect(message!.run.items[0]).toMatchObject({ id: 'video', state: 'done', by: 'admin' });
    }
    expect(unlisted.pubs(wsPath('checklists'))).toEqual([]);
  });
});
