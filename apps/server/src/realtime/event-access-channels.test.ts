import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { wsPath, type WsChannel } from '@bathylog/shared';
import { createCruise, createLowering, createUser } from '../../test/api-fixtures.js';
import { createTestApp, engines, type TestApp } from '../../test/test-app.js';
import { publicationBarrier } from './testing/publication-barrier.js';
import { listenInRange, RawClient, scriptHello } from './testing/ws-test-client.js';

/**
 * With access control on, live events and aux data of a lowering restricted to one user reach that
 * user and admins only; events outside it reach every subscriber. Without access control, everyone.
 * Each caller holds two sockets: with the socket server's token cache on (`authRecheckMs` above 0),
 * the sockets of one token share one verified caller and one delivery decision per publication,
 * and each still receives exactly what the rule gives its caller.
 */
const channels: WsChannel[] = ['newEvents', 'updateEvents', 'deleteEvents', 'newEventAuxData', 'updateEventAuxData'];
const minute = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(engines)('event channels and access lists on %s', (engine) => {
  const setups: Array<[boolean, number]> = [
    [true, 0],
    [true, 60_000],
    [false, 0],
  ];
  for (const [useAccessControl, authRecheckMs] of setups) {
    describe(`access control ${useAccessControl ? 'on' : 'off'}, callers re-checked ${authRecheckMs ? 'every minute' : 'on every delivery'}`, () => {
      let t: TestApp;
      let port: number;
      let admin: string;
      let member: string;
      let outsider: string;
      const clients: RawClient[] = [];

      const subscriber = async (token: string) => {
        const c = await RawClient.open(port);
        clients.push(c);
        const paths = [...channels, 'updateCustomVars' as const].map((ch) => wsPath(ch));
        expect((await c.call(scriptHello(token, paths))).type).toBe('hello');
        return c;
      };
      const barrier = publicationBarrier(
        () => t,
        () => admin,
      );

      beforeAll(async () => {
        t = await createTestApp(engine, { useAccessControl, realtime: { authRecheckMs } });
        port = await listenInRange(t.app);
        admin = await t.login('admin', 'demo');
        const m = await createUser(t, admin, 'member', ['event_manager']);
        member = m.token;
        outsider = (await createUser(t, admin, 'outsider', ['event_manager'])).token;
        // An open cruise around now; inside it a lowering (until a minute from now) only the member may open.
        const now = Date.now();
        await createCruise(t, admin, { start_ts: iso(now - 60 * minute), stop_ts: iso(now + 60 * minute) });
        const lowering = await createLowering(t, admin, {
          start_ts: iso(now - 30 * minute),
          stop_ts: iso(now + minute),
        });
        const perms = await t.api('PATCH', `/lowerings/${lowering}/permissions`, {
          token: admin,
          body: { add: [m.id] },
        });
        expect(perms.statusCode).toBe(204);
      });
      afterEach(() => {
        for (const c of clients.splice(0)) c.close();
      });
      afterAll(() => t?.close());

      it(`delivers the dive's events and aux data ${useAccessControl ? 'only to the member and admins' : 'to everyone'}`, async () => {
        const a = await subscriber(admin);
        const m = await subscriber(member);
        const o = await subscriber(outsider);
        const twins = [await subscriber(admin), await subscriber(member), await subscriber(outsider)] as const;
        const post = async (value: string, ts: number) => {
          const res = await t.api('POST', '/events', { token: admin, body: { event_value: value, ts: iso(ts) } });
          expect(res.statusCode).toBe(201);
          return (res.json() as { insertedId: string }).insertedId;
        };
        const dive = await post('IN_DIVE', Date.now() - minute);
        const open = await post('AFTER_DIVE', Date.now() + 90_000);
        const patch = await t.api('PATCH', `/events/${dive}`, { token: admin, body: { event_free_text: 'seen' } });
        expect(patch.statusCode).toBe(204);
        for (const eventId of [dive, open]) {
          const aux = await t.api('POST', '/event_aux_data', {
            token: admin,
            body: { event_id: eventId, data_source: 'nav', data_array: [{ data_name: 'depth', data_value: '5' }] },
          });
          expect(aux.statusCode).toBe(201);
          const again = await t.api('POST', '/event_aux_data', {
            token: admin,
            body: { event_id: eventId, data_source: 'nav', data_array: [{ data_name: 'depth', data_value: '6' }] },
          });
          expect(again.statusCode).toBe(204);
        }
        await barrier(a, m, o, ...twins);
        const seen = (c: RawClient) => ({
          newEvents: c.pubs(wsPath('newEvents')).map((p) => (p as { event_value: string }).event_value),
          updateEvents: c.pubs(wsPath('updateEvents')).map((p) => (p as { id: string }).id),
          newEventAuxData: c.pubs(wsPath('newEventAuxData')).map((p) => (p as { event_id: string }).event_id),
          updateEventAuxData: c.pubs(wsPath('updateEventAuxData')).map((p) => (p as { event_id: string }).event_id),
        });
        const everything = {
          newEvents: ['IN_DIVE', 'AFTER_DIVE'],
          updateEvents: [dive],
          newEventAuxData: [dive, open],
          updateEventAuxData: [dive, open],
        };
        expect(seen(a)).toEqual(everything);
        expect(seen(m)).toEqual(everything);
        expect(seen(o)).toEqual(
          useAccessControl
            ? { newEvents: ['AFTER_DIVE'], updateEvents: [], newEventAuxData: [open], updateEventAuxData: [open] }
            : everything,
        );
        expect(twins.map(seen)).toEqual([seen(a), seen(m), seen(o)]);

        const gone = m.nextPub(wsPath('deleteEvents'));
        expect((await t.api('DELETE', `/events/${dive}`, { token: admin })).statusCode).toBe(204);
        expect((await gone) as { id: string }).toMatchObject({ id: dive });
        await barrier(a, m, o);
        expect(o.pubs(wsPath('deleteEvents'))).toHaveLength(useAccessControl ? 0 : 1);
      });
    });
  }
});
