import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { wsPath, type WsChannel } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../test/role-tokens.js';
import { systemIds } from '../seed/system.js';
import { publicationBarrier } from './testing/publication-barrier.js';
import { listenInRange, RawClient, scriptHello } from './testing/ws-test-client.js';

/**
 * Each channel of docs/wire.md#channels published by the REST call that changes the record, with the
 * payload the REST API shows for it, and the per-record rules for non-admins (hidden records,
 * admin-only templates, access lists).
 */
const all = (...channels: WsChannel[]) => channels.map((c) => wsPath(c));

const template = (overrides: Record<string, unknown> = {}) => ({
  event_name: 'Fish',
  event_value: 'FISH',
  event_free_text_required: false,
  system_template: false,
  template_categories: ['biology'],
  event_options: [],
  ...overrides,
});

const window = { start_ts: '2023-03-14T00:00:00.000Z', stop_ts: '2023-03-20T00:00:00.000Z' };
const cruiseBody = (overrides: Record<string, unknown> = {}) => ({
  cruise_id: 'FKt230303',
  cruise_location: 'Pacific',
  cruise_tags: ['demo'],
  cruise_additional_meta: { cruise_name: 'Demo', cruise_pi: 'Someone' },
  ...window,
  ...overrides,
});
const loweringBody = (overrides: Record<string, unknown> = {}) => ({
  lowering_id: 'S0492',
  lowering_location: 'Seamount',
  lowering_tags: [],
  lowering_additional_meta: {},
  start_ts: '2023-03-15T00:00:00.000Z',
  stop_ts: '2023-03-15T10:00:00.000Z',
  ...overrides,
});

const withoutDisabled = (record: Record<string, unknown>) => {
  const { disabled: _disabled, ...rest } = record;
  return rest;
};

describe.each(engines)('realtime channels on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let users: RoleUsers;
  let admin: string;
  let guest: string;
  const clients: RawClient[] = [];

  const subscriber = async (token: string, channels: WsChannel[]) => {
    const c = await RawClient.open(port);
    clients.push(c);
    const reply = await c.call(scriptHello(token, [...all(...channels), wsPath('updateCustomVars')]));
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
    guest = users.tokens.guest!;
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(() => t?.close());

  it('publishes template creation, update and deletion with the API object minus `disabled`', async () => {
    const a = await subscriber(admin, ['newEventTemplates', 'updateEventTemplates', 'deleteEventTemplates']);
    const created = a.nextPub(wsPath('newEventTemplates'));
    const post = await t.api('POST', '/event_templates', { token: admin, body: template() });
    expect(post.statusCode).toBe(201);
    const id = (post.json() as { insertedId: string }).insertedId;
    const stored = (await t.api('GET', `/event_templates/${id}`, { token: admin })).json() as Record<string, unknown>;
    expect(await created).toEqual(withoutDisabled(stored));

    const updated = a.nextPub(wsPath('updateEventTemplates'));
    expect(
      (await t.api('PATCH', `/event_templates/${id}`, { token: admin, body: { event_name: 'Big fish' } })).statusCode,
    ).toBe(204);
    const afterPatch = (await t.api('GET', `/event_templates/${id}`, { token: admin })).json() as Record<
      string,
      unknown
    >;
    expect(await updated).toEqual(withoutDisabled(afterPatch));

    const deleted = a.nextPub(wsPath('deleteEventTemplates'));
    expect((await t.api('DELETE', `/event_templates/${id}`, { token: admin })).statusCode).toBe(204);
    expect(await deleted).toEqual(withoutDisabled(afterPatch));
  });

  it('does not send admin-only templates to non-admins, and nothing on template channels without read_event_templates', async () => {
    const a = await subscriber(admin, ['newEventTemplates']);
    const g = await subscriber(guest, ['newEventTemplates']);
    // Sealog 2.4's power_logger uses admin-only templates: it gets them as admins do.
    const made = await t.api('POST', '/users', {
      token: admin,
      body: {
        username: 'chpower',
        fullname: 'P',
        email: 'chpower@example.org',
        password: 'secret-pw',
        roles: ['power_logger'],
      },
    });
    expect(made.statusCode).toBe(201);
    const p = await subscriber(await t.login('chpower', 'secret-pw'), ['newEventTemplates']);
    const post = await t.api('POST', '/event_templates', {
      token: admin,
      body: template({ event_name: 'Admin thing', event_value: 'ADMIN', system_template: true, admin_only: true }),
    });
    expect(post.statusCode).toBe(201);
    const open = await t.api('POST', '/event_templates', {
      token: admin,
      body: template({ event_name: 'Crab', event_value: 'CRAB' }),
    });
    expect(open.statusCode).toBe(201);
    await barrier(a, g, p);
    for (const c of [a, p]) {
      expect(c.pubs(wsPath('newEventTemplates')).map((m) => (m as { event_value: string }).event_value)).toEqual([
        'ADMIN',
        'CRAB',
      ]);
    }
    expect(g.pubs(wsPath('newEventTemplates')).map((p) => (p as { event_value: string }).event_value)).toEqual([
      'CRAB',
    ]);
  });

  it('publishes cruises and lowerings with their cross-pushes, and hides hidden ones from non-admins', async () => {
    const channels: WsChannel[] = ['newCruises', 'updateCruises', 'newLowerings', 'updateLowerings'];
    const a = await subscriber(admin, channels);
    const w = await subscriber(users.tokens.event_watcher!, channels);

    const cruisePost = await t.api('POST', '/cruises', { token: admin, body: cruiseBody() });
    expect(cruisePost.statusCode).toBe(201);
    const cruiseId = (cruisePost.json() as { insertedId: string }).insertedId;
    const loweringPost = await t.api('POST', '/lowerings', { token: admin, body: loweringBody() });
    expect(loweringPost.statusCode).toBe(201);
    const loweringId = (loweringPost.json() as { insertedId: string }).insertedId;
    await barrier(a, w);

    const cruiseApi = (await t.api('GET', `/cruises/${cruiseId}`, { token: admin })).json() as Record<string, unknown>;
    const loweringApi = (await t.api('GET', `/lowerings/${loweringId}`, { token: admin })).json() as Record<
      string,
      unknown
    >;
    const strip = (record: Record<string, unknown>, meta: string, files: string) => {
      const m = { ...(record[meta] as Record<string, unknown>) };
      delete m[files];
      return { ...record, [meta]: m };
    };
    for (const c of [a, w]) {
      expect(c.pubs(wsPath('newCruises'))).toEqual([strip(cruiseApi, 'cruise_additional_meta', 'cruise_files')]);
      expect(c.pubs(wsPath('newLowerings'))).toEqual([
        strip(loweringApi, 'lowering_additional_meta', 'lowering_files'),
      ]);
      // The new lowering lies inside the cruise: its cruise is pushed as updated.
      expect(c.pubs(wsPath('updateCruises')).map((p) => (p as { id: string }).id)).toEqual([cruiseId]);
    }

    // Hiding the cruise: admins hear about it, the watcher (who no longer sees it) does not.
    expect(
      (await t.api('PATCH', `/cruises/${cruiseId}`, { token: admin, body: { cruise_hidden: true } })).statusCode,
    ).toBe(204);
    expect(
      (await t.api('PATCH', `/lowerings/${loweringId}`, { token: admin, body: { lowering_hidden: true } })).statusCode,
    ).toBe(204);
    await barrier(a, w);
    expect(a.pubs(wsPath('updateCruises')).map((p) => (p as { cruise_hidden: boolean }).cruise_hidden)).toContain(true);
    expect(a.pubs(wsPath('updateLowerings')).map((p) => (p as { lowering_hidden: boolean }).lowering_hidden)).toContain(
      true,
    );
    expect(
      w.pubs(wsPath('updateCruises')).every((p) => (p as { cruise_hidden: boolean }).cruise_hidden === false),
    ).toBe(true);
    expect(
      w.pubs(wsPath('updateLowerings')).every((p) => (p as { lowering_hidden: boolean }).lowering_hidden === false),
    ).toBe(true);
  });

  it('publishes events created, updated and deleted through the REST API with the Sealog payloads', async () => {
    const channels: WsChannel[] = ['newEvents', 'updateEvents', 'deleteEvents'];
    const w = await subscriber(users.tokens.event_watcher!, channels);
    const post = await t.api('POST', '/events', {
      token: guest,
      body: {
        event_value: 'FISH',
        event_options: [{ event_option_name: 'Fish Colour', event_option_value: 'red' }],
        event_free_text: 'x',
      },
    });
    expect(post.statusCode).toBe(201);
    const inserted = (post.json() as { insertedEvent: Record<string, unknown> }).insertedEvent;
    expect(await w.nextPub(wsPath('newEvents'))).toEqual(inserted);
    expect(inserted).toMatchObject({
      event_author: 'guest',
      event_options: [{ event_option_name: 'fish_colour', event_option_value: 'red' }],
    });

    const id = inserted.id as string;
    const updated = w.nextPub(wsPath('updateEvents'));
    expect((await t.api('PATCH', `/events/${id}`, { token: guest, body: { event_free_text: 'y' } })).statusCode).toBe(
      204,
    );
    expect(await updated).toEqual({ ...inserted, event_free_text: 'y' });

    const deleted = w.nextPub(wsPath('deleteEvents'));
    expect((await t.api('DELETE', `/events/${id}`, { token: admin })).statusCode).toBe(204);
    expect(await deleted).toEqual({ ...inserted, event_free_text: 'y', aux_data: [] });

    // Old events and publish:false are stored but not pushed.
    const quiet = [
      { event_value: 'OLD', ts: '2020-01-01T00:00:00.000Z' },
      { event_value: 'QUIET', publish: false },
    ];
    for (const body of quiet) expect((await t.api('POST', '/events', { token: guest, body })).statusCode).toBe(201);
    await barrier(w);
    expect(w.pubs(wsPath('newEvents')).map((p) => (p as { event_value: string }).event_value)).toEqual(['FISH']);
  });

  it('publishes a late or back-dated event its sender marks live, and keeps unmarked old events quiet', async () => {
    const w = await subscriber(users.tokens.event_watcher!, ['newEvents']);
    // Typed three minutes ago, sent when the link came back; then one back-dated by a day.
    const lateTs = new Date(Date.now() - 180_000).toISOString();
    const backdatedTs = new Date(Date.now() - 86_400_000).toISOString();
    const bodies = [
      { event_value: 'LATE', ts: lateTs, publish: true },
      { event_value: 'IMPORTED', ts: lateTs },
      { event_value: 'BACKDATED', ts: backdatedTs, publish: true },
      { event_value: 'QUIET', ts: lateTs, publish: false },
    ];
    for (const body of bodies) expect((await t.api('POST', '/events', { token: guest, body })).statusCode).toBe(201);
    await barrier(w);
    expect(w.pubs(wsPath('newEvents')).map((p) => p as { event_value: string; ts: string })).toEqual([
      expect.objectContaining({ event_value: 'LATE', ts: lateTs }),
      expect.objectContaining({ event_value: 'BACKDATED', ts: backdatedTs }),
    ]);
  });

  it('publishes aux data created, replaced, updated and deleted through the REST API', async () => {
    const channels: WsChannel[] = ['newEventAuxData', 'updateEventAuxData', 'deleteEventAuxData'];
    const w = await subscriber(users.tokens.event_watcher!, channels);
    const post = await t.api('POST', '/events', { token: guest, body: { event_value: 'SAMPLE' } });
    const eventId = (post.json() as { insertedId: string }).insertedId;
    const nav = {
      event_id: eventId,
      data_source: 'vehicleRealtimeNavData',
      data_array: [{ data_name: 'depth', data_value: '1000', data_uom: 'm' }],
    };

    const created = w.nextPub(wsPath('newEventAuxData'));
    const aux = await t.api('POST', '/event_aux_data', { token: admin, body: nav });
    expect(aux.statusCode).toBe(201);
    const auxId = (aux.json() as { insertedId: string }).insertedId;
    const stored = () =>
      t.api('GET', `/event_aux_data/${auxId}`, { token: admin }).then((r) => r.json() as Record<string, unknown>);
    expect(await created).toEqual(await stored());
    expect(await stored()).toEqual({ ...nav, id: auxId });

    // The same event and source again replaces the data: an update.
    const replaced = w.nextPub(wsPath('updateEventAuxData'));
    const again = await t.api('POST', '/event_aux_data', {
      token: admin,
      body: { ...nav, data_array: [{ data_name: 'depth', data_value: '1001', data_uom: 'm' }] },
    });
    expect(again.statusCode).toBe(204);
    expect(await replaced).toEqual(await stored());

    const patched = w.nextPub(wsPath('updateEventAuxData'));
    const patch = await t.api('PATCH', `/event_aux_data/${auxId}`, {
      token: admin,
      body: { data_array: [{ data_name: 'heading', data_value: '90', data_uom: 'deg' }] },
    });
    expect(patch.statusCode).toBe(204);
    const afterPatch = await stored();
    expect(await patched).toEqual(afterPatch);

    const deleted = w.nextPub(wsPath('deleteEventAuxData'));
    expect((await t.api('DELETE', `/event_aux_data/${auxId}`, { token: admin })).statusCode).toBe(204);
    expect(await deleted).toEqual(afterPatch);
  });
});

describe.each(engines)('realtime channels with access control on %s', (engine) => {
  let t: TestApp;
  let port: number;
  let users: RoleUsers;
  const clients: RawClient[] = [];

  beforeAll(async () => {
    t = await createTestApp(engine, { useAccessControl: true, realtime: { authRecheckMs: 0 } });
    port = await listenInRange(t.app);
    users = await createRoleUsers(t);
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) c.close();
    await t?.close();
  });

  it('sends a cruise or lowering to a non-admin only when they are on its access list', async () => {
    const admin = users.tokens.admin!;
    const open = async (token: string) => {
      const c = await RawClient.open(port);
      clients.push(c);
      expect((await c.call(scriptHello(token, all('newCruises', 'updateCruises', 'updateCustomVars')))).type).toBe(
        'hello',
      );
      return c;
    };
    const listed = await open(users.tokens.event_watcher!);
    const unlisted = await open(users.tokens.event_logger!);
    const a = await open(admin);
    const post = await t.api('POST', '/cruises', {
      token: admin,
      body: cruiseBody({ cruise_id: 'AC1', cruise_access_list: [users.ids.event_watcher!] }),
    });
    expect(post.statusCode).toBe(201);
    const waits = [listed, unlisted, a].map((c) => c.nextPub(wsPath('updateCustomVars')));
    await t.api('PATCH', `/custom_vars/${systemIds.asnapStatus}`, { token: admin, body: { custom_var_value: 'On' } });
    await Promise.all(waits);
    expect(a.pubs(wsPath('newCruises')).map((p) => (p as { cruise_id: string }).cruise_id)).toEqual(['AC1']);
    expect(listed.pubs(wsPath('newCruises')).map((p) => (p as { cruise_id: string }).cruise_id)).toEqual(['AC1']);
    expect(unlisted.pubs(wsPath('newCruises'))).toEqual([]);
  });
});
