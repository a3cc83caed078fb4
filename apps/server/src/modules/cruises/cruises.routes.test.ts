import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { newObjectId, type WsChannel } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { callerKinds, createRoleUsers, type CallerKind, type RoleUsers } from '../../../test/role-tokens.js';
import { captureChannel, clearRecords } from '../../../test/record-tests.js';
import { createCruise, createLowering, createUser, makeCruise } from '../../../test/api-fixtures.js';
import { insertEvent } from '../../../test/table-fixtures.js';

type Json = Record<string, unknown>;

describe.each(engines)('cruises API on %s', (engine) => {
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
  const ids = (res: { json(): unknown }) => (res.json() as Json[]).map((c) => c.cruise_id);

  const capture = (channel: WsChannel) => captureChannel(t, channel);

  describe('create and read', () => {
    it('creates a cruise and answers the Sealog shape: ISO times with ms, file list, no access list', async () => {
      const res = await t.api('POST', '/cruises', { token: admin, body: makeCruise({ cruise_tags: ['engineering'] }) });
      expect(res.statusCode).toBe(201);
      const { acknowledged, insertedId } = res.json() as { acknowledged: boolean; insertedId: string };
      expect(acknowledged).toBe(true);
      expect(insertedId).toMatch(/^[0-9a-f]{24}$/);

      const one = await get(`/cruises/${insertedId}`);
      expect(one.statusCode).toBe(200);
      const body = one.json() as Json;
      expect(body).toEqual({
        cruise_id: 'FKt230303',
        cruise_location: 'Lost City, Mid-Atlantic Ridge',
        start_ts: '2023-03-03T00:00:00.000Z',
        stop_ts: '2023-04-11T23:59:59.000Z',
        cruise_additional_meta: {
          ...(makeCruise().cruise_additional_meta as Json),
          cruise_files: [],
        },
        cruise_tags: ['engineering'],
        cruise_hidden: false,
        id: insertedId,
      });
      expect(Object.keys(body).at(-1)).toBe('id');
      expect(body).not.toHaveProperty('_id');
    });

    it('keeps a client-chosen id and refuses it a second time', async () => {
      const id = newObjectId();
      expect((await t.api('POST', '/cruises', { token: admin, body: makeCruise({ id }) })).json()).toEqual({
        acknowledged: true,
        insertedId: id,
      });
      const again = await t.api('POST', '/cruises', { token: admin, body: makeCruise({ id }) });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'Record with the payload id already exists',
      });
    });

    it('does not store a file list sent on create (files come from the folder)', async () => {
      const meta = { ...(makeCruise().cruise_additional_meta as Json), cruise_files: ['old_report.pdf'] };
      const id = await createCruise(t, admin, { cruise_additional_meta: meta });
      expect(
        ((await get(`/cruises/${id}`)).json() as { cruise_additional_meta: Json }).cruise_additional_meta.cruise_files,
      ).toEqual([]);
    });

    it.each([
      ['stop before start', { stop_ts: '2023-03-01T00:00:00.000Z' }, 'Start date must be older than stop date'],
      ['stop equal to start', { stop_ts: '2023-03-03T00:00:00.000Z' }, 'Start date must be older than stop date'],
      ['an unknown key', { extra: 1 }, '"extra" is not allowed'],
      ['an invalid timestamp', { start_ts: 'yesterday' }, '"start_ts" must be a valid ISO 8601 date'],
      ['a numeric timestamp', { start_ts: 1677801600000 }, '"start_ts" must be a string'],
      ['an empty cruise id', { cruise_id: '' }, '"cruise_id" is not allowed to be empty'],
      ['a missing location', { cruise_location: undefined }, '"cruise_location" is required'],
      ['tags that are not a list', { cruise_tags: 'coral' }, '"cruise_tags" must be of type array'],
      ['a bad client id', { id: 'xyz' }, '"id" must be a 24-character hex id'],
      [
        'a non-string vessel',
        { cruise_additional_meta: { cruise_vessel: 5 } },
        '"cruise_additional_meta.cruise_vessel" must be a string',
      ],
      ['an access list without access control', { cruise_access_list: [] }, '"cruise_access_list" is not allowed'],
    ])('refuses %s with a 400 that names it', async (_label, override, message) => {
      const res = await t.api('POST', '/cruises', { token: admin, body: makeCruise(override) });
      expect(res.statusCode).toBe(400);
      expect((res.json() as Json).message).toBe(message);
      expect((await get('/cruises')).statusCode).toBe(404);
    });

    it('refuses malformed JSON', async () => {
      const res = await t.api('POST', '/cruises', {
        token: admin,
        body: '{"cruise_id": ',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect((res.json() as Json).message).toBe('Invalid request payload JSON format');
    });

    it('answers bad and unknown ids clearly', async () => {
      expect((await get('/cruises/abc')).statusCode).toBe(400);
      expect((await get('/cruises/zzzzzzzzzzzzzzzzzzzzzzzz')).statusCode).toBe(400);
      const missing = newObjectId();
      const res = await get(`/cruises/${missing}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: `No record found for id: ${missing}`,
      });
    });
  });

  describe('list filters', () => {
    let a: string;
    beforeEach(async () => {
      a = await createCruise(t, admin, {
        cruise_id: 'A-2021',
        start_ts: '2021-01-01T00:00:00Z',
        stop_ts: '2021-02-01T00:00:00Z',
        cruise_location: 'Axial',
        cruise_tags: ['coral', 'geology'],
        cruise_additional_meta: { cruise_vessel: 'R/V Atlantis', cruise_pi: 'Dr. A' },
      });
      await createCruise(t, admin, {
        cruise_id: 'B-2022',
        start_ts: '2022-01-01T00:00:00Z',
        stop_ts: '2022-02-01T00:00:00Z',
        cruise_location: 'Kane',
        cruise_tags: ['biology'],
        cruise_additional_meta: { cruise_vessel: 'R/V Falkor (too)', cruise_pi: 'Dr. B' },
      });
      await createCruise(t, admin, {
        cruise_id: 'C-2023',
        start_ts: '2023-01-01T00:00:00Z',
        stop_ts: '2023-02-01T00:00:00Z',
        cruise_location: '',
        cruise_tags: ['coral'],
        cruise_hidden: true,
        cruise_additional_meta: { cruise_vessel: 'R/V Atlantis', cruise_pi: 'Dr. C' },
      });
    });

    it('answers 404 No records found for an empty result', async () => {
      await t.api('DELETE', '/cruises/all', { token: admin });
      expect((await get('/cruises')).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'No records found',
      });
    });

    it('sorts by start newest first, or oldest first, with offset and limit', async () => {
      expect(ids(await get('/cruises'))).toEqual(['C-2023', 'B-2022', 'A-2021']);
      expect(ids(await get('/cruises?sort=oldest'))).toEqual(['A-2021', 'B-2022', 'C-2023']);
      expect(ids(await get('/cruises?offset=1&limit=1'))).toEqual(['B-2022']);
      expect(ids(await get('/cruises?offset=2'))).toEqual(['A-2021']);
      expect((await get('/cruises?offset=3')).statusCode).toBe(404);
    });

    it.each([
      ['cruise_id=B-2022', ['B-2022']],
      ['cruise_id=B-2022&cruise_location=Axial', ['B-2022']],
      ['cruise_location=Axial', ['A-2021']],
      ['cruise_location=', ['C-2023']],
      ['cruise_vessel=R%2FV%20Atlantis', ['C-2023', 'A-2021']],
      ['cruise_pi=Dr.%20B', ['B-2022']],
      ['cruise_pi=Dr.%20B&cruise_vessel=R%2FV%20Atlantis', []],
      ['cruise_tags=coral', ['C-2023', 'A-2021']],
      ['cruise_tags=biology&cruise_tags=geology', ['B-2022', 'A-2021']],
      ['cruise_tags=Coral', []],
      ['cruise_tags=cor', []],
      ['startTS=2022-01-15T00:00:00Z&stopTS=2022-01-16T00:00:00Z', ['B-2022']],
      ['startTS=2021-01-31T00:00:00Z&stopTS=2022-01-02T00:00:00Z', ['B-2022', 'A-2021']],
      ['startTS=2022-06-01T00:00:00Z', ['C-2023']],
      ['stopTS=2021-06-01T00:00:00Z', ['A-2021']],
      ['hidden=true', ['C-2023']],
      ['hidden=False', ['B-2022', 'A-2021']],
    ])('GET /cruises?%s', async (query, expected) => {
      const res = await get(`/cruises?${query}`);
      if (expected.length === 0) expect(res.statusCode).toBe(404);
      else expect(ids(res)).toEqual(expected);
    });

    it.each([
      ['limit=0', '"limit" must be greater than or equal to 1'],
      ['offset=-1', '"offset" must be zero or more'],
      ['hidden=maybe', '"hidden" must be a boolean'],
      ['startTS=not-a-date', '"startTS" must be a valid date'],
      ['startTS=2022-02-01T00:00:00Z&stopTS=2022-01-01T00:00:00Z', '"stopTS" must not be before "startTS"'],
      ['format=xml', '"format" must be one of [json, csv]'],
      ['color=red', '"color" is not allowed'],
    ])('refuses ?%s', async (query, message) => {
      const res = await get(`/cruises?${query}`);
      expect(res.statusCode).toBe(400);
      expect((res.json() as Json).message).toBe(message);
    });

    it('answers CSV with the Sealog header and one line per cruise', async () => {
      const res = await get('/cruises?format=csv&cruise_id=A-2021');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.body).toBe(
        '"id","cruise_id","start_ts","stop_ts","cruise_location","cruise_tags","cruise_pi","cruise_vessel"\n' +
          `"${a}","A-2021","2021-01-01T00:00:00.000Z","2021-02-01T00:00:00.000Z","Axial","coral,geology","Dr. A","R/V Atlantis"`,
      );
      const all = await get('/cruises?format=csv');
      expect(all.body.split('\n')).toHaveLength(4);
      const one = await get(`/cruises/${a}?format=csv`);
      expect(one.body.split('\n')[1]).toContain(`"${a}","A-2021"`);
    });

    it('exports the full demo-like cruise with every newline of the description escaped', async () => {
      const id = await createCruise(t, admin);
      const res = await get(`/cruises/${id}?format=csv`);
      const [header, row, extra] = res.body.split('\n');
      expect(extra).toBeUndefined();
      expect(header).toBe(
        '"id","cruise_id","start_ts","stop_ts","cruise_location","cruise_tags","cruise_arrival_location","cruise_departure_location","cruise_description","cruise_name","cruise_participants","cruise_pi","cruise_vessel"',
      );
      expect(row).toContain('Mid-Atlantic Ridge.\\n\\nIn 2000, scientists found Lost City."');
      expect(row).toContain('"D. Butterfield,S. Walker"');
    });
  });

  describe('hidden cruises for non-admins (access control off)', () => {
    let hidden: string;
    beforeEach(async () => {
      await createCruise(t, admin, { cruise_id: 'OPEN' });
      hidden = await createCruise(t, admin, {
        cruise_id: 'SECRET',
        start_ts: '2024-01-01T00:00:00Z',
        stop_ts: '2024-02-01T00:00:00Z',
        cruise_hidden: true,
      });
    });

    it('leaves hidden cruises out of lists and refuses hidden=true', async () => {
      const watcher = users.tokens.event_watcher!;
      expect(ids(await get('/cruises', watcher))).toEqual(['OPEN']);
      expect(ids(await get('/cruises?hidden=false', watcher))).toEqual(['OPEN']);
      const res = await get('/cruises?hidden=true', watcher);
      expect(res.statusCode).toBe(401);
      expect((res.json() as Json).message).toBe('User not authorized to retrieve hidden cruises');
      expect(ids(await get('/cruises'))).toEqual(['SECRET', 'OPEN']);
    });

    it('still opens a hidden cruise by id, as Sealog does', async () => {
      expect((await get(`/cruises/${hidden}`, users.tokens.guest)).statusCode).toBe(200);
    });

    it('leaves hidden cruises out of bylowering and byevent', async () => {
      const lowering = await createLowering(t, admin, {
        start_ts: '2024-01-10T00:00:00Z',
        stop_ts: '2024-01-11T00:00:00Z',
      });
      const event = await insertEvent(t, '2024-01-10T12:00:00Z');
      expect((await get(`/cruises/bylowering/${lowering}`, users.tokens.event_watcher)).statusCode).toBe(404);
      expect((await get(`/cruises/byevent/${event}`, users.tokens.event_watcher)).statusCode).toBe(404);
      expect(((await get(`/cruises/bylowering/${lowering}`)).json() as Json).id).toBe(hidden);
      expect(((await get(`/cruises/byevent/${event}`)).json() as Json).id).toBe(hidden);
    });
  });

  describe('bylowering and byevent (membership by time)', () => {
    it('finds the cruise containing a lowering or an event, as JSON or CSV', async () => {
      const cruise = await createCruise(t, admin);
      const lowering = await createLowering(t, admin);
      const event = await insertEvent(t, '2023-03-20T10:00:00.000Z');
      const byLowering = await get(`/cruises/bylowering/${lowering}`);
      expect(byLowering.statusCode).toBe(200);
      expect((byLowering.json() as Json).id).toBe(cruise);
      expect(((await get(`/cruises/byevent/${event}`)).json() as Json).id).toBe(cruise);
      const csv = await get(`/cruises/byevent/${event}?format=csv`);
      expect(csv.body.split('\n')).toHaveLength(2);
      expect(csv.body.split('\n')[1]!.startsWith(`"${cruise}","FKt230303"`)).toBe(true);
    });

    it('answers 404 when nothing contains it and 400 for unknown records', async () => {
      await createCruise(t, admin);
      const outside = await createLowering(t, admin, {
        start_ts: '2023-04-11T23:00:00Z',
        stop_ts: '2023-04-12T02:00:00Z',
      });
      expect((await get(`/cruises/bylowering/${outside}`)).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'No records found',
      });
      const event = await insertEvent(t, '2020-01-01T00:00:00Z');
      expect((await get(`/cruises/byevent/${event}`)).statusCode).toBe(404);
      const missing = newObjectId();
      const noLowering = await get(`/cruises/bylowering/${missing}`);
      expect(noLowering.statusCode).toBe(400);
      expect((noLowering.json() as Json).message).toBe(`No lowering record found for id: ${missing}`);
      expect(((await get(`/cruises/byevent/${missing}`)).json() as Json).message).toBe(
        `No event record found for id: ${missing}`,
      );
      expect((await get(`/cruises/byevent/${missing}?limit=1`)).statusCode).toBe(400);
    });
  });

  describe('update', () => {
    it('updates the given fields, replaces the meta whole and answers 204 with no body', async () => {
      const id = await createCruise(t, admin);
      const res = await t.api('PATCH', `/cruises/${id}`, {
        token: admin,
        body: {
          cruise_location: 'Atlantis Massif',
          cruise_additional_meta: { cruise_name: 'Renamed', cruise_vessel: 'R/V X' },
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const body = (await get(`/cruises/${id}`)).json() as Json;
      expect(body.cruise_location).toBe('Atlantis Massif');
      expect(body.cruise_additional_meta).toEqual({ cruise_name: 'Renamed', cruise_vessel: 'R/V X', cruise_files: [] });
      expect(body.cruise_id).toBe('FKt230303');
    });

    it('checks the time order against the stored bounds', async () => {
      const id = await createCruise(t, admin);
      const res = await t.api('PATCH', `/cruises/${id}`, { token: admin, body: { stop_ts: '2023-03-02T00:00:00Z' } });
      expect(res.statusCode).toBe(400);
      expect((res.json() as Json).message).toBe('Start date must be older than stop date');
      const start = await t.api('PATCH', `/cruises/${id}`, {
        token: admin,
        body: { start_ts: '2023-05-01T00:00:00Z' },
      });
      expect(start.statusCode).toBe(400);
      expect(((await get(`/cruises/${id}`)).json() as Json).start_ts).toBe('2023-03-03T00:00:00.000Z');
    });

    it('refuses an empty body, unknown keys, an id change and unknown cruises', async () => {
      const id = await createCruise(t, admin);
      expect((await t.api('PATCH', `/cruises/${id}`, { token: admin, body: {} })).statusCode).toBe(400);
      expect(
        ((await t.api('PATCH', `/cruises/${id}`, { token: admin, body: { bogus: 1 } })).json() as Json).message,
      ).toBe('"bogus" is not allowed');
      expect(
        ((await t.api('PATCH', `/cruises/${id}`, { token: admin, body: { id: newObjectId() } })).json() as Json)
          .message,
      ).toBe('"id" is not allowed');
      const missing = newObjectId();
      const res = await t.api('PATCH', `/cruises/${missing}`, { token: admin, body: { cruise_location: 'x' } });
      expect(res.statusCode).toBe(404);
      expect((res.json() as Json).message).toBe(`No record found for id: ${missing}`);
    });

    it('hiding a cruise hides the lowerings inside it, and showing it shows them again', async () => {
      const id = await createCruise(t, admin);
      const inside = await createLowering(t, admin);
      const outside = await createLowering(t, admin, {
        lowering_id: 'S0600',
        start_ts: '2023-06-01T00:00:00Z',
        stop_ts: '2023-06-02T00:00:00Z',
      });
      expect((await t.api('PATCH', `/cruises/${id}`, { token: admin, body: { cruise_hidden: true } })).statusCode).toBe(
        204,
      );
      expect(((await get(`/lowerings/${inside}`)).json() as Json).lowering_hidden).toBe(true);
      expect(((await get(`/lowerings/${outside}`)).json() as Json).lowering_hidden).toBe(false);
      const watcherList = await get('/lowerings', users.tokens.event_watcher);
      expect((watcherList.json() as Json[]).map((l) => l.id)).toEqual([outside]);
      await t.api('PATCH', `/cruises/${id}`, { token: admin, body: { cruise_hidden: false } });
      expect(((await get(`/lowerings/${inside}`)).json() as Json).lowering_hidden).toBe(false);
    });

    it('publishes updateCruises with the clean cruise and updateLowerings for each lowering inside', async () => {
      const id = await createCruise(t, admin);
      const lowering = await createLowering(t, admin);
      const cruises = capture('updateCruises');
      const lowerings = capture('updateLowerings');
      await t.api('PATCH', `/cruises/${id}`, { token: admin, body: { cruise_location: 'Moved' } });
      await vi.waitFor(() => {
        expect(cruises.seen).toHaveLength(1);
        expect(lowerings.seen).toHaveLength(1);
      });
      cruises.off();
      lowerings.off();
      expect(cruises.seen[0]).toMatchObject({ id, cruise_location: 'Moved', start_ts: '2023-03-03T00:00:00.000Z' });
      expect(cruises.seen[0]).not.toHaveProperty('_id');
      expect(cruises.seen[0]!.cruise_additional_meta).not.toHaveProperty('cruise_files');
      expect(lowerings.seen[0]).toMatchObject({ id: lowering, lowering_id: 'S0492' });
    });
  });

  describe('publishing', () => {
    it('POST publishes newCruises (clean, no files) and updateLowerings for lowerings inside', async () => {
      const lowering = await createLowering(t, admin);
      const created = capture('newCruises');
      const lowerings = capture('updateLowerings');
      const id = await createCruise(t, admin);
      await vi.waitFor(() => {
        expect(created.seen).toHaveLength(1);
        expect(lowerings.seen).toHaveLength(1);
      });
      created.off();
      lowerings.off();
      expect(created.seen[0]).toEqual({
        ...((await get(`/cruises/${id}`)).json() as Json),
        cruise_additional_meta: makeCruise().cruise_additional_meta,
      });
      expect(lowerings.seen[0]!.id).toBe(lowering);
    });

    it('bump answers 200 with an empty body and re-publishes the cruise; only for those who may edit it', async () => {
      const id = await createCruise(t, admin);
      const updates = capture('updateCruises');
      for (const who of ['event_watcher', 'event_logger', 'event_manager', 'guest'] as const) {
        const refused = await get(`/cruises/${id}/bump`, users.tokens[who]);
        expect(refused.json(), who).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Insufficient scope' });
      }
      const res = await get(`/cruises/${id}/bump`, users.tokens.cruise_manager);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('');
      expect(res.headers['content-type']).toBeUndefined();
      await vi.waitFor(() => expect(updates.seen).toHaveLength(1));
      updates.off();
      expect(updates.seen[0]!.id).toBe(id);
      expect((await get(`/cruises/${newObjectId()}/bump`)).statusCode).toBe(404);
    });
  });

  describe('delete', () => {
    it('deletes the cruise and its folder, leaving lowerings and events', async () => {
      const id = await createCruise(t, admin);
      const lowering = await createLowering(t, admin);
      const folder = path.join(t.ctx.paths.cruises, id);
      expect(existsSync(folder)).toBe(true);
      const res = await t.api('DELETE', `/cruises/${id}`, { token: admin });
      expect(res.statusCode).toBe(204);
      expect(existsSync(folder)).toBe(false);
      expect((await get(`/cruises/${id}`)).statusCode).toBe(404);
      expect((await get(`/lowerings/${lowering}`)).statusCode).toBe(200);
      expect((await t.api('DELETE', `/cruises/${id}`, { token: admin })).statusCode).toBe(404);
    });

    it('DELETE /cruises/all removes every cruise and empties the cruise folder', async () => {
      const one = await createCruise(t, admin);
      await createCruise(t, admin, { cruise_id: 'X' });
      expect((await t.api('DELETE', '/cruises/all', { token: admin })).statusCode).toBe(204);
      expect((await get('/cruises')).statusCode).toBe(404);
      expect(existsSync(path.join(t.ctx.paths.cruises, one))).toBe(false);
      expect(existsSync(t.ctx.paths.cruises)).toBe(true);
    });
  });

  describe('roles', () => {
    /** Every account with a role reads cruises (all roles grant read_cruises). */
    const readers = (status: number): Partial<Record<CallerKind, number>> => ({
      admin: status,
      cruise_manager: status,
      event_manager: status,
      template_manager: status,
      event_logger: status,
      event_watcher: status,
      guest: status,
    });
    const expectations: Array<[string, Partial<Record<CallerKind, number>>]> = [
      ['GET /cruises', readers(200)],
      ['GET /cruises/{id}', readers(200)],
      ['GET /cruises/{id}/bump', { admin: 200, cruise_manager: 200 }],
      ['POST /cruises', { admin: 201 }],
      ['PATCH /cruises/{id}', { admin: 204, cruise_manager: 204 }],
      ['PATCH /cruises/{id}/permissions', { admin: 204 }],
      ['DELETE /cruises/{id}', { admin: 204 }],
      ['DELETE /cruises/all', { admin: 204 }],
    ];

    it.each(expectations)('%s as every role', async (route, allowed) => {
      const [method, pattern] = route.split(' ') as [string, string];
      for (const kind of callerKinds) {
        await t.api('DELETE', '/cruises/all', { token: admin });
        const id = await createCruise(t, admin);
        const body =
          method === 'POST'
            ? makeCruise()
            : pattern.endsWith('permissions')
              ? { add: [users.ids.event_watcher] }
              : method === 'PATCH'
                ? { cruise_additional_meta: { cruise_name: 'n' } }
                : undefined;
        const token = users.tokens[kind];
        const res = await t.api(method as 'GET', pattern.replace('{id}', id), {
          ...(token ? { token } : {}),
          ...(body ? { body } : {}),
        });
        const expected = allowed[kind] ?? (kind === 'none' || kind === 'disabled' ? 401 : 403);
        expect(`${kind} ${res.statusCode}`).toBe(`${kind} ${expected}`);
        if (expected === 403) expect((res.json() as Json).message).toBe('Insufficient scope');
      }
    });
  });

  describe('cruise_manager edits', () => {
    let id: string;
    let manager: string;
    beforeEach(async () => {
      id = await createCruise(t, admin);
      manager = users.tokens.cruise_manager!;
    });

    it('edits name, description, location, tags and participants', async () => {
      const stored = (await get(`/cruises/${id}`)).json() as { cruise_additional_meta: Json };
      const meta = { ...stored.cruise_additional_meta, cruise_name: 'New name', cruise_description: 'New text' };
      const res = await t.api('PATCH', `/cruises/${id}`, {
        token: manager,
        body: { cruise_location: 'Elsewhere', cruise_tags: ['a'], cruise_additional_meta: meta },
      });
      expect(res.statusCode).toBe(204);
      const after = (await get(`/cruises/${id}`)).json() as { cruise_additional_meta: Json; cruise_location: string };
      expect(after.cruise_additional_meta.cruise_name).toBe('New name');
      expect(after.cruise_location).toBe('Elsewhere');
    });

    it('may resend the locked fields unchanged, and keeps locked meta keys it leaves out', async () => {
      const res = await t.api('PATCH', `/cruises/${id}`, {
        token: manager,
        body: {
          cruise_id: 'FKt230303',
          start_ts: '2023-03-03T00:00:00Z',
          stop_ts: '2023-04-11T23:59:59.000Z',
          cruise_additional_meta: { cruise_name: 'Only the name' },
        },
      });
      expect(res.statusCode).toBe(204);
      const meta = ((await get(`/cruises/${id}`)).json() as { cruise_additional_meta: Json }).cruise_additional_meta;
      expect(meta).toMatchObject({
        cruise_name: 'Only the name',
        cruise_vessel: 'R/V Falkor (too)',
        cruise_pi: 'Dr. David Butterfield',
        cruise_departure_location: 'San Juan, PR',
        cruise_arrival_location: 'San Juan, PR',
      });
      expect(meta).not.toHaveProperty('cruise_description');
    });

    it.each([
      [{ cruise_id: 'OTHER' }, 'Only admins can change cruise_id'],
      [
        { start_ts: '2023-03-04T00:00:00Z', stop_ts: '2023-04-12T00:00:00Z' },
        'Only admins can change start_ts, stop_ts',
      ],
      [
        { cruise_additional_meta: { cruise_vessel: 'R/V Other', cruise_pi: 'Dr. Other' } },
        'Only admins can change cruise_vessel, cruise_pi',
      ],
      [
        { cruise_additional_meta: { cruise_arrival_location: 'Ponta Delgada' } },
        'Only admins can change cruise_arrival_location',
      ],
      [{ cruise_hidden: true }, 'Only admins can hide or show a cruise'],
    ])('refuses %j with a 403 naming the fields', async (body, message) => {
      const res = await t.api('PATCH', `/cruises/${id}`, { token: manager, body });
      expect(res.statusCode).toBe(403);
      expect((res.json() as Json).message).toBe(message);
      expect(((await get(`/cruises/${id}`)).json() as Json).cruise_id).toBe('FKt230303');
    });
  });

  describe('access control on', () => {
    let ac: TestApp;
    let acAdmin: string;
    let alice: { id: string; token: string };
    let bob: { id: string; token: string };
    let manager: { id: string; token: string };
    beforeAll(async () => {
      ac = await createTestApp(engine, { useAccessControl: true });
      acAdmin = await ac.login('admin', 'demo');
      alice = await createUser(ac, acAdmin, 'alice', ['event_watcher']);
      bob = await createUser(ac, acAdmin, 'bob', ['event_watcher']);
      manager = await createUser(ac, acAdmin, 'carol', ['cruise_manager']);
    });
    afterAll(() => ac?.close());
    beforeEach(async () => {
      await ac.api('DELETE', '/cruises/all', { token: acAdmin });
      await ac.api('DELETE', '/lowerings/all', { token: acAdmin });
    });
    const acGet = (url: string, token: string) => ac.api('GET', url, { token });

    it('accepts an access list of existing users on create and shows it in answers', async () => {
      const res = await ac.api('POST', '/cruises', {
        token: acAdmin,
        body: makeCruise({ cruise_access_list: [alice.id] }),
      });
      expect(res.statusCode).toBe(201);
      const id = (res.json() as { insertedId: string }).insertedId;
      expect(((await acGet(`/cruises/${id}`, acAdmin)).json() as Json).cruise_access_list).toEqual([alice.id]);
      const bad = await ac.api('POST', '/cruises', {
        token: acAdmin,
        body: makeCruise({ cruise_access_list: [newObjectId()] }),
      });
      expect(bad.statusCode).toBe(400);
      expect((bad.json() as Json).message).toBe('cruise_access_list includes invalid user IDs');
    });

    it('lists to a non-admin the open cruises and the ones they are named on, and refuses the others by id', async () => {
      const open = await createCruise(ac, acAdmin, {
        cruise_id: 'OPEN',
        start_ts: '2021-01-01T00:00:00Z',
        stop_ts: '2021-02-01T00:00:00Z',
      });
      const named = await createCruise(ac, acAdmin, {
        cruise_id: 'NAMED',
        start_ts: '2022-01-01T00:00:00Z',
        stop_ts: '2022-02-01T00:00:00Z',
        cruise_access_list: [alice.id],
      });
      const hiddenNamed = await createCruise(ac, acAdmin, {
        cruise_id: 'HIDDEN-NAMED',
        cruise_hidden: true,
        cruise_access_list: [alice.id],
      });
      await createCruise(ac, acAdmin, {
        cruise_id: 'HIDDEN',
        start_ts: '2024-01-01T00:00:00Z',
        stop_ts: '2024-02-01T00:00:00Z',
        cruise_hidden: true,
      });

      expect(ids(await acGet('/cruises', alice.token))).toEqual(['HIDDEN-NAMED', 'NAMED', 'OPEN']);
      expect(ids(await acGet('/cruises', bob.token))).toEqual(['OPEN']);
      expect((await acGet(`/cruises/${hiddenNamed}`, alice.token)).statusCode).toBe(200);
      expect((await acGet(`/cruises/${open}`, bob.token)).statusCode).toBe(200);
      const refused = await acGet(`/cruises/${named}`, bob.token);
      expect(refused.statusCode).toBe(401);
      expect((refused.json() as Json).message).toBe('User not authorized to retrieve this cruise');
      // A bump needs write_cruises first (bob only reads).
      expect((await acGet(`/cruises/${named}/bump`, bob.token)).statusCode).toBe(403);
      expect((await acGet('/cruises', acAdmin)).json()).toHaveLength(4);
    });

    it('applies the list rule to bylowering and byevent', async () => {
      await createCruise(ac, acAdmin, { cruise_access_list: [alice.id] });
      const lowering = await createLowering(ac, acAdmin);
      expect((await acGet(`/cruises/bylowering/${lowering}`, alice.token)).statusCode).toBe(200);
      expect((await acGet(`/cruises/bylowering/${lowering}`, bob.token)).statusCode).toBe(404);
    });

    it('refuses a cruise_manager who is not on the list, and access-list changes from one who is', async () => {
      const id = await createCruise(ac, acAdmin, { cruise_access_list: [alice.id] });
      const res = await ac.api('PATCH', `/cruises/${id}`, { token: manager.token, body: { cruise_location: 'x' } });
      expect(res.statusCode).toBe(401);
      expect((res.json() as Json).message).toBe('User not authorized to edit this cruise');
      await ac.api('PATCH', `/cruises/${id}/permissions`, { token: acAdmin, body: { add: [manager.id] } });
      expect(
        (await ac.api('PATCH', `/cruises/${id}`, { token: manager.token, body: { cruise_location: 'x' } })).statusCode,
      ).toBe(204);
      const list = await ac.api('PATCH', `/cruises/${id}`, {
        token: manager.token,
        body: { cruise_access_list: [manager.id] },
      });
      expect(list.statusCode).toBe(403);
      expect((list.json() as Json).message).toBe('Only admins can change the cruise access list');
    });

    it('permissions add and remove users on the cruise and every lowering inside it, without duplicates', async () => {
      const id = await createCruise(ac, acAdmin, { cruise_access_list: [alice.id] });
      const inside = await createLowering(ac, acAdmin);
      const outside = await createLowering(ac, acAdmin, {
        lowering_id: 'OUT',
        start_ts: '2025-01-01T00:00:00Z',
        stop_ts: '2025-01-02T00:00:00Z',
      });
      let res = await ac.api('PATCH', `/cruises/${id}/permissions`, {
        token: acAdmin,
        body: { add: [bob.id, alice.id] },
      });
      expect(res.statusCode).toBe(204);
      expect(((await acGet(`/cruises/${id}`, acAdmin)).json() as Json).cruise_access_list).toEqual([alice.id, bob.id]);
      expect(((await acGet(`/lowerings/${inside}`, acAdmin)).json() as Json).lowering_access_list).toEqual([
        bob.id,
        alice.id,
      ]);
      expect(((await acGet(`/lowerings/${outside}`, acAdmin)).json() as Json).lowering_access_list).toEqual([]);
      res = await ac.api('PATCH', `/cruises/${id}/permissions`, { token: acAdmin, body: { remove: [alice.id] } });
      expect(((await acGet(`/cruises/${id}`, acAdmin)).json() as Json).cruise_access_list).toEqual([bob.id]);
      expect(((await acGet(`/lowerings/${inside}`, acAdmin)).json() as Json).lowering_access_list).toEqual([bob.id]);

      const bad = await ac.api('PATCH', `/cruises/${id}/permissions`, {
        token: acAdmin,
        body: { add: [newObjectId()] },
      });
      expect(bad.statusCode).toBe(400);
      expect((bad.json() as Json).message).toBe('cruise_access_list include invalid user IDs');
      expect(
        (await ac.api('PATCH', `/cruises/${newObjectId()}/permissions`, { token: acAdmin, body: { add: [bob.id] } }))
          .statusCode,
      ).toBe(404);
      expect(
        (await ac.api('PATCH', `/cruises/${id}/permissions`, { token: acAdmin, body: { add: ['nope'] } })).statusCode,
      ).toBe(400);
      expect((await ac.api('PATCH', `/cruises/${id}/permissions`, { token: acAdmin, body: {} })).statusCode).toBe(400);
    });

    it('an access-list PATCH carries its additions and removals down to the lowerings inside', async () => {
      const id = await createCruise(ac, acAdmin, { cruise_access_list: [alice.id] });
      const inside = await createLowering(ac, acAdmin, { lowering_access_list: [alice.id, manager.id] });
      await ac.api('PATCH', `/cruises/${id}`, { token: acAdmin, body: { cruise_access_list: [bob.id] } });
      expect(((await acGet(`/lowerings/${inside}`, acAdmin)).json() as Json).lowering_access_list).toEqual([
        manager.id,
        bob.id,
      ]);
    });
  });
});
