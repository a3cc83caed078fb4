import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { newObjectId, type WsChannel } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { callerKinds, createRoleUsers, type CallerKind, type RoleUsers } from '../../../test/role-tokens.js';
import { captureChannel, clearRecords } from '../../../test/record-tests.js';
import { createCruise, createLowering, createUser, makeLowering } from '../../../test/api-fixtures.js';
import { insertEvent } from '../../../test/table-fixtures.js';

type Json = Record<string, unknown>;

describe.each(engines)('lowerings API on %s', (engine) => {
  let t: TestApp;
  let users: RoleUsers;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await clearRecords(t, admin);
    await t.ctx.database.db.deleteFrom('events').execute();
  });

  const get = (url: string, token: string | undefined = admin) => t.api('GET', url, token ? { token } : {});
  const ids = (res: { json(): unknown }) => (res.json() as Json[]).map((l) => l.lowering_id);
  const capture = (channel: WsChannel) => captureChannel(t, channel);

  describe('create and read', () => {
    it('creates the demo dive S0492 and answers the Sealog shape', async () => {
      const res = await t.api('POST', '/lowerings', {
        token: admin,
        body: makeLowering({ lowering_tags: ['engineering'] }),
      });
      expect(res.statusCode).toBe(201);
      const id = (res.json() as { insertedId: string }).insertedId;
      const body = (await get(`/lowerings/${id}`)).json() as Json;
      expect(body).toEqual({
        lowering_id: 'S0492',
        start_ts: '2023-03-14T22:15:39.479Z',
        stop_ts: '2023-03-15T08:32:32.654Z',
        lowering_additional_meta: { ...(makeLowering().lowering_additional_meta as Json), lowering_files: [] },
        lowering_location: 'Kane FZ',
        lowering_tags: ['engineering'],
        lowering_hidden: false,
        id,
      });
      expect(Object.keys(body).at(-1)).toBe('id');
    });

    it('accepts ISO input with up to 6 fractional digits, offsets and date-only', async () => {
      const id = await createLowering(t, admin, {
        start_ts: '2023-03-14T22:15:39.479000Z',
        stop_ts: '2023-03-15T10:32:32+02:00',
      });
      const body = (await get(`/lowerings/${id}`)).json() as Json;
      expect(body.start_ts).toBe('2023-03-14T22:15:39.479Z');
      expect(body.stop_ts).toBe('2023-03-15T08:32:32.000Z');
      const dateOnly = await createLowering(t, admin, {
        lowering_id: 'D',
        start_ts: '2023-03-14',
        stop_ts: '2023-03-15',
      });
      expect(((await get(`/lowerings/${dateOnly}`)).json() as Json).start_ts).toBe('2023-03-14T00:00:00.000Z');
    });

    it('refuses a repeated client id with a 400 (Sealog answered 503)', async () => {
      const id = newObjectId();
      await createLowering(t, admin, { id });
      const again = await t.api('POST', '/lowerings', { token: admin, body: makeLowering({ id }) });
      expect(again.statusCode).toBe(400);
      expect((again.json() as Json).message).toBe('Record with the payload id already exists');
    });

    it.each([
      ['stop before start', { stop_ts: '2023-03-14T00:00:00Z' }, 'Start date must be older than stop date'],
      ['an unknown key', { lowering_name: 'x' }, '"lowering_name" is not allowed'],
      [
        'a meta that is not an object',
        { lowering_additional_meta: 'x' },
        '"lowering_additional_meta" must be of type object',
      ],
      [
        'files that are not names',
        { lowering_additional_meta: { lowering_files: [1] } },
        '"lowering_additional_meta.lowering_files[0]" must be a string',
      ],
      [
        'more required aux-data sources than a completeness query takes',
        { lowering_additional_meta: { required_aux_sources: Array.from({ length: 20_000 }, (_, i) => `src${i}`) } },
        '"lowering_additional_meta.required_aux_sources" must contain less than or equal to 100 items',
      ],
      [
        'a required aux-data source name of a novel',
        { lowering_additional_meta: { required_aux_sources: ['x'.repeat(201)] } },
        '"lowering_additional_meta.required_aux_sources[0]" length must be less than or equal to 200 characters long',
      ],
      ['an invalid date', { stop_ts: '2023-02-30T00:00:00Z' }, '"stop_ts" must be a valid ISO 8601 date'],
      ['an access list without access control', { lowering_access_list: [] }, '"lowering_access_list" is not allowed'],
    ])('refuses %s', async (_label, override, message) => {
      const res = await t.api('POST', '/lowerings', { token: admin, body: makeLowering(override) });
      expect(res.statusCode).toBe(400);
      expect((res.json() as Json).message).toBe(message);
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      const missing = newObjectId();
      expect((await get(`/lowerings/${missing}`)).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: `No record found for id: ${missing}`,
      });
      expect((await get('/lowerings/123')).statusCode).toBe(400);
    });
  });

  describe('lists', () => {
    beforeEach(async () => {
      await createLowering(t, admin, {
        lowering_id: 'L1',
        start_ts: '2023-03-05T00:00:00Z',
        stop_ts: '2023-03-05T10:00:00Z',
        lowering_location: 'Kane FZ',
        lowering_tags: ['rock'],
      });
      await createLowering(t, admin, {
        lowering_id: 'L2',
        start_ts: '2023-03-10T00:00:00Z',
        stop_ts: '2023-03-10T10:00:00Z',
        lowering_location: 'Atlantis',
        lowering_tags: ['bio', 'rock'],
      });
      await createLowering(t, admin, {
        lowering_id: 'L3',
        start_ts: '2023-03-20T00:00:00Z',
        stop_ts: '2023-03-20T10:00:00Z',
        lowering_location: 'Atlantis',
        lowering_hidden: true,
      });
      await createLowering(t, admin, {
        lowering_id: 'OUT',
        start_ts: '2023-05-01T00:00:00Z',
        stop_ts: '2023-05-01T10:00:00Z',
      });
    });

    it.each([
      ['', ['OUT', 'L3', 'L2', 'L1']],
      ['sort=oldest&limit=2', ['L1', 'L2']],
      ['offset=3', ['L1']],
      ['lowering_id=L2', ['L2']],
      ['lowering_id=L2&lowering_location=Kane%20FZ', ['L2']],
      ['lowering_location=Atlantis', ['L3', 'L2']],
      ['lowering_tags=rock', ['L2', 'L1']],
      ['lowering_tags=bio&lowering_tags=nothing', ['L2']],
      ['startTS=2023-03-05T05:00:00Z&stopTS=2023-03-10T01:00:00Z', ['L2', 'L1']],
      ['hidden=true', ['L3']],
      ['hidden=false&lowering_location=Atlantis', ['L2']],
    ])('GET /lowerings?%s', async (query, expected) => {
      expect(ids(await get(`/lowerings?${query}`))).toEqual(expected);
    });

    it('answers 404 for no match, 400 for bad queries', async () => {
      expect((await get('/lowerings?lowering_id=none')).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'No records found',
      });
      expect(((await get('/lowerings?cruise_id=x')).json() as Json).message).toBe('"cruise_id" is not allowed');
      expect((await get('/lowerings?limit=0')).statusCode).toBe(400);
    });

    it('leaves hidden lowerings out for non-admins and refuses them hidden=true', async () => {
      expect(ids(await get('/lowerings', users.tokens.event_watcher))).toEqual(['OUT', 'L2', 'L1']);
      const res = await get('/lowerings?hidden=true', users.tokens.guest);
      expect(res.statusCode).toBe(401);
      expect((res.json() as Json).message).toBe('User not authorized to retrieve hidden lowerings');
    });

    it('bycruise lists the lowerings inside the cruise, narrowed by startTS/stopTS, never hidden ones for non-admins', async () => {
      const cruise = await createCruise(t, admin);
      expect(ids(await get(`/lowerings/bycruise/${cruise}`))).toEqual(['L3', 'L2', 'L1']);
      expect(ids(await get(`/lowerings/bycruise/${cruise}`, users.tokens.event_watcher))).toEqual(['L2', 'L1']);
      expect(ids(await get(`/lowerings/bycruise/${cruise}?startTS=2023-03-06T00:00:00Z`))).toEqual(['L3', 'L2']);
      expect(ids(await get(`/lowerings/bycruise/${cruise}?stopTS=2023-03-15T00:00:00Z`))).toEqual(['L2', 'L1']);
      // Bounds outside the cruise fall back to the cruise's own.
      expect(
        ids(await get(`/lowerings/bycruise/${cruise}?startTS=2020-01-01T00:00:00Z&stopTS=2030-01-01T00:00:00Z`)),
      ).toEqual(['L3', 'L2', 'L1']);
      expect(ids(await get(`/lowerings/bycruise/${cruise}?lowering_tags=rock&sort=oldest`))).toEqual(['L1', 'L2']);
      expect(ids(await get(`/lowerings/bycruise/${cruise}?lowering_id=L1`))).toEqual(['L1']);
      expect((await get(`/lowerings/bycruise/${cruise}?lowering_id=OUT`)).statusCode).toBe(404);
      const csv = await get(`/lowerings/bycruise/${cruise}?format=csv`);
      expect(csv.body.split('\n')).toHaveLength(4);
      const missing = newObjectId();
      const res = await get(`/lowerings/bycruise/${missing}`);
      expect(res.statusCode).toBe(400);
      expect((res.json() as Json).message).toBe(`No cruise record found for id: ${missing}`);
    });

    it('byevent finds the lowering containing the event, not a hidden one for non-admins', async () => {
      const inL2 = await insertEvent(t, '2023-03-10T05:00:00Z');
      const inL3 = await insertEvent(t, '2023-03-20T05:00:00Z');
      const between = await insertEvent(t, '2023-03-12T00:00:00Z');
      expect(((await get(`/lowerings/byevent/${inL2}`, users.tokens.event_watcher)).json() as Json).lowering_id).toBe(
        'L2',
      );
      expect((await get(`/lowerings/byevent/${inL3}`, users.tokens.event_watcher)).statusCode).toBe(404);
      expect(((await get(`/lowerings/byevent/${inL3}`)).json() as Json).lowering_id).toBe('L3');
      expect((await get(`/lowerings/byevent/${between}`)).statusCode).toBe(404);
      const missing = newObjectId();
      expect(((await get(`/lowerings/byevent/${missing}`)).json() as Json).message).toBe(
        `No event record found for id: ${missing}`,
      );
    });
  });

  describe('CSV', () => {
    it('exports S0492 with the Sealog columns, the real id and every newline escaped', async () => {
      const id = await createLowering(t, admin);
      const res = await get(`/lowerings/${id}?format=csv`);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      const [header, row, extra] = res.body.split('\n');
      expect(extra).toBeUndefined();
      expect(header).toBe(
        '"id","lowering_id","start_ts","stop_ts","lowering_location","lowering_tags","lowering_description","milestones","stats"',
      );
      expect(row).toBe(
        `"${id}","S0492","2023-03-14T22:15:39.479Z","2023-03-15T08:32:32.654Z","Kane FZ","",` +
          '"Launch target location\\n\\nMain dive objectives:\\n1. Geological transect",' +
          '"{""lowering_descending"":""2023-03-14T22:29:58.755Z"",""lowering_on_bottom"":""2023-03-14T23:45:16.031Z"",""lowering_off_bottom"":""2023-03-15T01:39:44.340Z"",""lowering_on_surface"":""2023-03-15T08:11:12.549Z"",""lowering_aborted"":null}",' +
          '"{""max_depth"":2011.54,""bounding_box"":[23.551409,-45.133938,23.547893,-45.150482]}"',
      );
    });

    it('exports a lowering without a description (Sealog answered 500)', async () => {
      const id = await createLowering(t, admin, { lowering_additional_meta: {} });
      const res = await get(`/lowerings?format=csv`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(
        '"id","lowering_id","start_ts","stop_ts","lowering_location","lowering_tags"\n' +
          `"${id}","S0492","2023-03-14T22:15:39.479Z","2023-03-15T08:32:32.654Z","Kane FZ",""`,
      );
    });
  });

  describe('update', () => {
    it('updates fields and milestones, answers 204, and refuses bad time order', async () => {
      const id = await createLowering(t, admin);
      const meta = {
        ...(makeLowering().lowering_additional_meta as Json),
        milestones: { lowering_descending: '2023-03-14T22:30:00.000Z', lowering_aborted: null },
      };
      expect(
        (
          await t.api('PATCH', `/lowerings/${id}`, {
            token: admin,
            body: { lowering_location: 'Kane', lowering_additional_meta: meta },
          })
        ).statusCode,
      ).toBe(204);
      const body = (await get(`/lowerings/${id}`)).json() as {
        lowering_location: string;
        lowering_additional_meta: Json;
      };
      expect(body.lowering_location).toBe('Kane');
      expect(body.lowering_additional_meta.milestones).toEqual(meta.milestones);
      const bad = await t.api('PATCH', `/lowerings/${id}`, {
        token: admin,
        body: { start_ts: '2023-03-16T00:00:00Z' },
      });
      expect(bad.statusCode).toBe(400);
      expect((bad.json() as Json).message).toBe('Start date must be older than stop date');
    });

    it('answers 400 for an unknown lowering, as Sealog does', async () => {
      const missing = newObjectId();
      const res = await t.api('PATCH', `/lowerings/${missing}`, { token: admin, body: { lowering_location: 'x' } });
      expect(res.statusCode).toBe(400);
      expect((res.json() as Json).message).toBe(`No record found for id: ${missing}`);
    });

    it('lets a cruise_manager edit the description, milestones and stats but not the id, times or visibility', async () => {
      const id = await createLowering(t, admin);
      const manager = users.tokens.cruise_manager!;
      const meta = {
        lowering_description: 'Edited',
        milestones: { lowering_on_bottom: '2023-03-14T23:50:00.000Z' },
        stats: { max_depth: 2100 },
      };
      expect(
        (
          await t.api('PATCH', `/lowerings/${id}`, {
            token: manager,
            body: { lowering_id: 'S0492', lowering_additional_meta: meta },
          })
        ).statusCode,
      ).toBe(204);
      expect(
        ((await get(`/lowerings/${id}`)).json() as { lowering_additional_meta: Json }).lowering_additional_meta,
      ).toEqual({ ...meta, lowering_files: [] });
      for (const [body, message] of [
        [{ lowering_id: 'S0493' }, 'Only admins can change lowering_id'],
        [{ stop_ts: '2023-03-15T09:00:00Z' }, 'Only admins can change stop_ts'],
        [{ lowering_hidden: true }, 'Only admins can hide or show a lowering'],
      ] as const) {
        const res = await t.api('PATCH', `/lowerings/${id}`, { token: manager, body });
        expect(res.statusCode).toBe(403);
        expect((res.json() as Json).message).toBe(message);
      }
      expect(
        (
          await t.api('PATCH', `/lowerings/${id}`, {
            token: users.tokens.event_logger,
            body: { lowering_location: 'x' },
          })
        ).statusCode,
      ).toBe(403);
    });

    it('publishes updateLowerings (clean) and updateCruises for each cruise containing it', async () => {
      const cruise = await createCruise(t, admin);
      await createCruise(t, admin, {
        cruise_id: 'ELSEWHERE',
        start_ts: '2020-01-01T00:00:00Z',
        stop_ts: '2020-02-01T00:00:00Z',
      });
      const created = capture('newLowerings');
      const cruises = capture('updateCruises');
      const id = await createLowering(t, admin);
      await vi.waitFor(() => {
        expect(created.seen).toHaveLength(1);
        expect(cruises.seen).toHaveLength(1);
      });
      expect(created.seen[0]).toMatchObject({ id, lowering_id: 'S0492', start_ts: '2023-03-14T22:15:39.479Z' });
      expect(created.seen[0]!.lowering_additional_meta).not.toHaveProperty('lowering_files');
      expect(cruises.seen[0]).toMatchObject({ id: cruise, cruise_id: 'FKt230303' });
      expect(cruises.seen[0]).not.toHaveProperty('_id');
      created.off();

      const updates = capture('updateLowerings');
      await t.api('PATCH', `/lowerings/${id}`, { token: admin, body: { lowering_location: 'Moved' } });
      await vi.waitFor(() => {
        expect(updates.seen).toHaveLength(1);
        expect(cruises.seen).toHaveLength(2);
      });
      expect(updates.seen[0]).toMatchObject({ id, lowering_location: 'Moved' });
      updates.off();
      cruises.off();

      const bumped = capture('updateLowerings');
      // Only those who may edit the lowering make every client re-read it.
      expect((await get(`/lowerings/${id}/bump`, users.tokens.event_watcher)).statusCode).toBe(403);
      expect((await get(`/lowerings/${id}/bump`, users.tokens.event_logger)).statusCode).toBe(403);
      const bump = await get(`/lowerings/${id}/bump`, users.tokens.cruise_manager);
      expect(bump.statusCode).toBe(200);
      expect(bump.body).toBe('');
      await vi.waitFor(() => expect(bumped.seen).toHaveLength(1));
      bumped.off();
    });
  });

  describe('delete', () => {
    it('deletes the lowering and its folder (Sealog left the folder), 404 after', async () => {
      const id = await createLowering(t, admin);
      const folder = path.join(t.ctx.paths.lowerings, id);
      expect(existsSync(folder)).toBe(true);
      expect((await t.api('DELETE', `/lowerings/${id}`, { token: admin })).statusCode).toBe(204);
      expect(existsSync(folder)).toBe(false);
      expect((await t.api('DELETE', `/lowerings/${id}`, { token: admin })).statusCode).toBe(404);
    });

    it('DELETE /lowerings/all removes every lowering, for admins only', async () => {
      await createLowering(t, admin);
      expect((await t.api('DELETE', '/lowerings/all', { token: users.tokens.cruise_manager })).statusCode).toBe(403);
      expect((await t.api('DELETE', '/lowerings/all', { token: admin })).statusCode).toBe(204);
      expect((await get('/lowerings')).statusCode).toBe(404);
    });
  });

  describe('roles', () => {
    const readers = {
      admin: 200,
      cruise_manager: 200,
      event_manager: 200,
      template_manager: 200,
      event_logger: 200,
      event_watcher: 200,
      guest: 200,
    };
    const expectations: Array<[string, Partial<Record<CallerKind, number>>]> = [
      ['GET /lowerings', readers],
      ['GET /lowerings/{id}', readers],
      ['GET /lowerings/bycruise/{cruise}', readers],
      ['GET /lowerings/{id}/bump', { admin: 200, cruise_manager: 200 }],
      ['POST /lowerings', { admin: 201 }],
      ['PATCH /lowerings/{id}', { admin: 204, cruise_manager: 204 }],
      ['PATCH /lowerings/{id}/permissions', { admin: 204 }],
      ['DELETE /lowerings/{id}', { admin: 204 }],
    ];

    it.each(expectations)('%s as every role', async (route, allowed) => {
      const [method, pattern] = route.split(' ') as [string, string];
      const cruise = await createCruise(t, admin);
      for (const kind of callerKinds) {
        await t.api('DELETE', '/lowerings/all', { token: admin });
        const id = await createLowering(t, admin);
        const body =
          method === 'POST'
            ? makeLowering()
            : pattern.endsWith('permissions')
              ? { remove: [users.ids.event_watcher] }
              : method === 'PATCH'
                ? { lowering_location: 'x' }
                : undefined;
        const token = users.tokens[kind];
        const res = await t.api(method as 'GET', pattern.replace('{id}', id).replace('{cruise}', cruise), {
          ...(token ? { token } : {}),
          ...(body ? { body } : {}),
        });
        const expected = allowed[kind] ?? (kind === 'none' || kind === 'disabled' ? 401 : 403);
        expect(`${kind} ${res.statusCode}`).toBe(`${kind} ${expected}`);
      }
    });
  });

  describe('access control on', () => {
    let ac: TestApp;
    let acAdmin: string;
    let alice: { id: string; token: string };
    let bob: { id: string; token: string };
    beforeAll(async () => {
      ac = await createTestApp(engine, { useAccessControl: true });
      acAdmin = await ac.login('admin', 'demo');
      alice = await createUser(ac, acAdmin, 'alice', ['cruise_manager']);
      bob = await createUser(ac, acAdmin, 'bob', ['event_watcher']);
    });
    afterAll(() => ac?.close());

    it('restricts a lowering with an access list to its members, in lists, by id, bycruise and for edits', async () => {
      const cruise = await createCruise(ac, acAdmin);
      const id = await createLowering(ac, acAdmin, { lowering_access_list: [alice.id] });
      await createLowering(ac, acAdmin, {
        lowering_id: 'OPEN',
        start_ts: '2023-03-20T00:00:00Z',
        stop_ts: '2023-03-20T05:00:00Z',
      });
      expect(
        ((await ac.api('GET', `/lowerings/${id}`, { token: acAdmin })).json() as Json).lowering_access_list,
      ).toEqual([alice.id]);
      expect(ids(await ac.api('GET', '/lowerings', { token: alice.token }))).toEqual(['OPEN', 'S0492']);
      expect(ids(await ac.api('GET', '/lowerings', { token: bob.token }))).toEqual(['OPEN']);
      expect(ids(await ac.api('GET', `/lowerings/bycruise/${cruise}`, { token: bob.token }))).toEqual(['OPEN']);
      const refused = await ac.api('GET', `/lowerings/${id}`, { token: bob.token });
      expect(refused.statusCode).toBe(401);
      expect((refused.json() as Json).message).toBe('User not authorized to retrieve this lowering');
      expect(
        (await ac.api('PATCH', `/lowerings/${id}`, { token: alice.token, body: { lowering_location: 'ok' } }))
          .statusCode,
      ).toBe(204);

      await ac.api('PATCH', `/lowerings/${id}/permissions`, {
        token: acAdmin,
        body: { remove: [alice.id], add: [bob.id] },
      });
      const edit = await ac.api('PATCH', `/lowerings/${id}`, { token: alice.token, body: { lowering_location: 'no' } });
      expect(edit.statusCode).toBe(401);
      expect((edit.json() as Json).message).toBe('User not authorized to edit this lowering');
      const bad = await ac.api('PATCH', `/lowerings/${id}/permissions`, {
        token: acAdmin,
        body: { add: [newObjectId()] },
      });
      expect((bad.json() as Json).message).toBe('lowering_access_list include invalid user IDs');
      const badCreate = await ac.api('POST', '/lowerings', {
        token: acAdmin,
        body: makeLowering({ lowering_access_list: [newObjectId()] }),
      });
      expect(badCreate.statusCode).toBe(400);
      expect((badCreate.json() as Json).message).toBe('lowering_access_list includes invalid user IDs');
    });
  });
});
