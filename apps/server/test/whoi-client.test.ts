import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCruise, createLowering, createUser } from './api-fixtures.js';
import { insertAux, insertEvents, navData } from './table-fixtures.js';
import { parseCsv } from './parse-csv.js';
import { createTestApp, engines, type TestApp } from './test-app.js';

/**
 * The routes the WHOI client (ndsf-sealog-client 3.1.0) calls beyond stock Sealog
 * (docs/sealog-clients.md#whoi-client-routes), each with its refusals.
 */

const error = (statusCode: number, message: string, err?: string) => ({
  statusCode,
  error: err ?? (statusCode === 401 ? 'Unauthorized' : statusCode === 404 ? 'Not Found' : 'Bad Request'),
  message,
});

const renavData = (eventId: string) => ({
  event_id: eventId,
  data_source: 'vehicleReNavData',
  data_array: [
    { data_name: 'latitude', data_value: '23.5512', data_uom: 'ddeg' },
    { data_name: 'longitude', data_value: '-45.1401', data_uom: 'ddeg' },
  ],
});

describe.each(engines)('WHOI client routes on %s', (engine) => {
  describe('browsing the public archive anonymously', () => {
    let t: TestApp;
    let admin: string;

    beforeAll(async () => {
      t = await createTestApp(engine, { publicArchive: true });
      admin = await t.login('admin', 'demo');
      await createCruise(t, admin, { cruise_id: 'OPEN-C', cruise_public: true });
    });
    afterAll(() => t?.close());

    it('reads `Authorization: undefined` as no token where anonymous reading is allowed, and nowhere else', async () => {
      const anonymous = await t.api('GET', '/cruises');
      expect(anonymous.statusCode, anonymous.body).toBe(200);
      expect(anonymous.body).toContain('OPEN-C');
      // What the WHOI client sends when nobody is signed in, and its look-alikes.
      for (const header of ['undefined', 'Bearer undefined', 'Bearer null', 'Bearer ']) {
        const res = await t.api('GET', '/cruises', { headers: { authorization: header } });
        expect(res.statusCode, header).toBe(200);
        expect(res.body).toBe(anonymous.body);
      }
      // A route that admits no visitor, and a real but wrong token, are refused as before.
      expect((await t.api('GET', '/users', { headers: { authorization: 'undefined' } })).statusCode).toBe(401);
      expect((await t.api('GET', '/cruises', { headers: { authorization: 'Bearer not-a-token' } })).statusCode).toBe(
        401,
      );
      expect(
        (await t.api('POST', '/events', { headers: { authorization: 'undefined' }, body: { event_value: 'X' } }))
          .statusCode,
      ).toBe(401);
    });
  });

  describe('without access control', () => {
    let t: TestApp;
    let admin: string;
    let watcher: string;

    beforeAll(async () => {
      t = await createTestApp(engine);
      admin = await t.login('admin', 'demo');
      watcher = (await createUser(t, admin, 'whoiwatcher', ['event_watcher'])).token;
    });
    afterAll(() => t?.close());

    it('GET users/guests lists the guest accounts without a token, and nothing more of them', async () => {
      const guestRole = await createUser(t, admin, 'visitor', ['guest']);
      const off = await createUser(t, admin, 'oldvisitor', ['guest']);
      // Given the guest role beside a writing one: not offered.
      await createUser(t, admin, 'mixedvisitor', ['guest', 'event_logger']);
      expect((await t.api('PATCH', `/users/${off.id}`, { token: admin, body: { disabled: true } })).statusCode).toBe(
        204,
      );
      const res = await t.api('GET', '/users/guests');
      expect(res.statusCode, res.body).toBe(200);
      const guests = res.json() as Array<Record<string, unknown>>;
      // The seeded guest and the guest-role user; not the disabled one, not admin or a watcher.
      expect(guests.map((g) => g.username)).toEqual(['guest', 'visitor']);
      for (const g of guests) expect(Object.keys(g).sort()).toEqual(['fullname', 'id', 'username']);
      expect(guests[1]).toEqual({ id: guestRole.id, username: 'visitor', fullname: 'visitor' });
      // A guest-role user logs in and reads as a watcher does, no more.
      const login = await t.api('POST', '/auth/login', { body: { username: 'visitor', password: 'secret-pw' } });
      expect(login.statusCode).toBe(200);
      const token = (login.json() as { token: string }).token;
      expect((await t.api('GET', '/events', { token })).statusCode).not.toBe(403);
      expect((await t.api('POST', '/events', { token, body: { event_value: 'X' } })).statusCode).toBe(403);
      expect((await t.api('GET', '/users', { token })).statusCode).toBe(403);
    });

    it('GET events/{id}?aux_data=true gives the event with its aux data, under the event rule', async () => {
      const db = t.ctx.database.db;
      const [event] = await insertEvents(db, [{ ts: '2023-03-14T23:00:00.000Z', event_value: 'WHOIFISH' }]);
      await insertAux(db, [navData(event!, 7), renavData(event!)]);
      const res = await t.api('GET', `/events/${event}?aux_data=true`, { token: watcher });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { id: string; event_value: string; aux_data: Array<{ data_source: string }> };
      expect(body).toMatchObject({ id: event, event_value: 'WHOIFISH' });
      expect(body.aux_data.map((a) => a.data_source).sort()).toEqual(['vehicleReNavData', 'vehicleRealtimeNavData']);
      // Without the flag (or with false) the event alone, as before.
      for (const url of [`/events/${event}`, `/events/${event}?aux_data=false`]) {
        expect((await t.api('GET', url, { token: watcher })).json()).not.toHaveProperty('aux_data');
      }
      expect((await t.api('GET', `/events/${event}?aux_data=maybe`, { token: watcher })).json()).toEqual(
        error(400, '"aux_data" must be a boolean'),
      );
      expect((await t.api('GET', `/events/${event}?aux_data=true`)).statusCode).toBe(401);
    });

    it('GET lowerings/byloweringid and cruises/bycruiseid find a record by its human id', async () => {
      const cruise = await createCruise(t, admin, { cruise_id: 'AT50-01' });
      const lowering = await createLowering(t, admin, { lowering_id: 'J2-1500' });
      const byDive = await t.api('GET', '/lowerings/byloweringid/J2-1500', { token: watcher });
      expect(byDive.statusCode, byDive.body).toBe(200);
      expect(byDive.json()).toEqual((await t.api('GET', `/lowerings/${lowering}`, { token: watcher })).json());
      const byCruise = await t.api('GET', '/cruises/bycruiseid/AT50-01', { token: watcher });
      expect(byCruise.statusCode, byCruise.body).toBe(200);
      expect(byCruise.json()).toEqual((await t.api('GET', `/cruises/${cruise}`, { token: watcher })).json());
      const csv = await t.api('GET', '/lowerings/byloweringid/J2-1500?format=csv', { token: watcher });
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(csv.body).toContain('J2-1500');

      expect((await t.api('GET', '/lowerings/byloweringid/NOPE', { token: watcher })).json()).toEqual(
        error(404, 'No record found for lowering_id: NOPE'),
      );
      expect((await t.api('GET', '/cruises/bycruiseid/NOPE', { token: watcher })).json()).toEqual(
        error(404, 'No record found for cruise_id: NOPE'),
      );
      expect((await t.api('GET', '/lowerings/byloweringid/J2-1500')).statusCode).toBe(401);
      expect((await t.api('GET', '/cruises/bycruiseid/AT50-01')).statusCode).toBe(401);
      expect((await t.api('GET', '/lowerings/byloweringid/J2-1500?format=xml', { token: watcher })).statusCode).toBe(
        400,
      );
      // A hidden record follows the by-id rule (without access control it opens by id, as in Sealog).
      await t.api('PATCH', `/lowerings/${lowering}`, { token: admin, body: { lowering_hidden: true } });
      const hiddenById = await t.api('GET', `/lowerings/${lowering}`, { token: watcher });
      const hiddenByName = await t.api('GET', '/lowerings/byloweringid/J2-1500', { token: watcher });
      expect(hiddenByName.statusCode).toBe(hiddenById.statusCode);
    });

    it('exports with use_renav=true prefer the renav source where an event has one', async () => {
      const db = t.ctx.database.db;
      const lowering = await createLowering(t, admin, {
        lowering_id: 'RENAV1',
        start_ts: '2024-01-01T00:00:00.000Z',
        stop_ts: '2024-01-01T06:00:00.000Z',
      });
      const [withRenav, realtimeOnly] = await insertEvents(db, [
        { ts: '2024-01-01T01:00:00.000Z', event_value: 'RENAVED' },
        { ts: '2024-01-01T02:00:00.000Z', event_value: 'REALTIME' },
      ]);
      await insertAux(db, [navData(withRenav!, 1), renavData(withRenav!), navData(realtimeOnly!, 2)]);
      const sources = async (query: string) => {
        const res = await t.api('GET', `/event_exports/bylowering/${lowering}${query}`, { token: watcher });
        expect(res.statusCode, res.body).toBe(200);
        return (res.json() as Array<{ event_value: string; aux_data: Array<{ data_source: string }> }>).map((e) => [
          e.event_value,
          e.aux_data.map((a) => a.data_source).sort(),
        ]);
      };
      expect(await sources('?use_renav=true')).toEqual([
        ['RENAVED', ['vehicleReNavData']],
        ['REALTIME', ['vehicleRealtimeNavData']],
      ]);
      expect(await sources('')).toEqual([
        ['RENAVED', ['vehicleReNavData', 'vehicleRealtimeNavData']],
        ['REALTIME', ['vehicleRealtimeNavData']],
      ]);
      const csv = await t.api('GET', `/event_exports/bylowering/${lowering}?format=csv&use_renav=true`, {
        token: watcher,
      });
      expect(csv.statusCode).toBe(200);
      const [header, first, second] = parseCsv(csv.body);
      const col = (name: string) => header!.indexOf(name);
      expect(first![col('event_value')]).toBe('RENAVED');
      expect(first![col('vehicleReNavData.latitude_value')]).toBe('23.5512');
      expect(first![col('vehicleRealtimeNavData.latitude_value')]).toBe('');
      expect(second![col('vehicleRealtimeNavData.latitude_value')]).toBe('23.550020');
      expect(
        (await t.api('GET', `/event_exports/bylowering/${lowering}?use_renav=sometimes`, { token: watcher })).json(),
      ).toEqual(error(400, '"use_renav" must be a boolean'));
    });

    it('GET event_aux_data/bylowering/{lowering_id} reads a lowering by its name, as the WHOI map asks', async () => {
      const lowering = await createLowering(t, admin, {
        lowering_id: 'MAP-0492',
        start_ts: '2024-02-01T00:00:00.000Z',
        stop_ts: '2024-02-01T06:00:00.000Z',
      });
      const [inside] = await insertEvents(t.ctx.database.db, [
        { ts: '2024-02-01T01:00:00.000Z', event_value: 'MAPFIX' },
      ]);
      await insertAux(t.ctx.database.db, [navData(inside!, 5), renavData(inside!)]);
      const query = '?datasource=vehicleRealtimeNavData';
      const byName = await t.api('GET', `/event_aux_data/bylowering/MAP-0492${query}`, { token: watcher });
      expect(byName.statusCode, byName.body).toBe(200);
      const byId = await t.api('GET', `/event_aux_data/bylowering/${lowering}${query}`, { token: watcher });
      expect(byName.json()).toEqual(byId.json());
      expect(byName.json()).toEqual([
        expect.objectContaining({ event_id: inside, data_source: 'vehicleRealtimeNavData' }),
      ]);
      // A name no lowering has is the route's own not-found; the id form is unchanged.
      expect((await t.api('GET', '/event_aux_data/bylowering/NOPE-1', { token: watcher })).json()).toEqual(
        error(404, 'lowering not found for that id'),
      );
      expect((await t.api('GET', '/event_aux_data/bylowering/MAP-0492')).statusCode).toBe(401);
    });
  });

  describe('with access control', () => {
    let t: TestApp;
    let admin: string;
    let member: { id: string; token: string };
    let outsider: { id: string; token: string };
    let secretEvent: string;
    let lowering: string;

    beforeAll(async () => {
      t = await createTestApp(engine, { useAccessControl: true });
      admin = await t.login('admin', 'demo');
      member = await createUser(t, admin, 'acmember', ['event_watcher']);
      outsider = await createUser(t, admin, 'acoutsider', ['event_watcher']);
      const cruise = await createCruise(t, admin, { cruise_id: 'SECRET-C' });
      lowering = await createLowering(t, admin, { lowering_id: 'SECRET-L' });
      for (const [kind, id] of [
        ['cruises', cruise],
        ['lowerings', lowering],
      ] as const) {
        const perms = await t.api('PATCH', `/${kind}/${id}/permissions`, { token: admin, body: { add: [member.id] } });
        expect(perms.statusCode).toBe(204);
      }
      [secretEvent] = (await insertEvents(t.ctx.database.db, [
        { ts: '2023-03-15T00:00:00.000Z', event_value: 'SECRETDIVE' },
      ])) as [string];
      await insertAux(t.ctx.database.db, [navData(secretEvent, 3)]);
    });
    afterAll(() => t?.close());

    it('refuses another cruise’s records by human id as by id, and gives them to a member', async () => {
      for (const [url, byId] of [
        ['/lowerings/byloweringid/SECRET-L', `/lowerings/${lowering}`],
        ['/cruises/bycruiseid/SECRET-C', null],
        ['/event_aux_data/bylowering/SECRET-L', `/event_aux_data/bylowering/${lowering}`],
      ] as const) {
        const refused = await t.api('GET', url, { token: outsider.token });
        expect(refused.statusCode, url).toBe(401);
        expect(refused.body).not.toContain('SECRET-');
        if (byId) expect((await t.api('GET', byId, { token: outsider.token })).statusCode).toBe(401);
        const allowed = await t.api('GET', url, { token: member.token });
        expect(allowed.statusCode, url).toBe(200);
        expect((await t.api('GET', url, { token: admin })).statusCode).toBe(200);
      }
    });

    it('answers events/{id}?aux_data=true as not found to an outsider', async () => {
      const refused = await t.api('GET', `/events/${secretEvent}?aux_data=true`, { token: outsider.token });
      expect(refused.json()).toEqual(error(404, `No record found for id: ${secretEvent}`));
      const allowed = await t.api('GET', `/events/${secretEvent}?aux_data=true`, { token: member.token });
      expect((allowed.json() as { aux_data: unknown[] }).aux_data).toHaveLength(1);
    });
  });
});
