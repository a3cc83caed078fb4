import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newObjectId, type WsChannel } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../../test/role-tokens.js';
import {
  framegrabData,
  insertAux,
  insertCruise,
  insertEvents,
  insertLowering,
  navData,
} from '../../../test/table-fixtures.js';

type Json = Record<string, unknown>;

const T0 = Date.UTC(2024, 0, 1);
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const nav = [
  { data_name: 'latitude', data_value: '41.342981', data_uom: 'ddeg' },
  { data_name: 'depth', data_value: 943.2, data_uom: 'meters' },
];

describe.each(engines)('event aux data API on %s', (engine) => {
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
    const db = t.ctx.database.db;
    await db.deleteFrom('event_aux_data').execute();
    await db.deleteFrom('events').execute();
    await db.deleteFrom('lowerings').execute();
    await db.deleteFrom('cruises').execute();
  });

  const get = (url: string, token: string | undefined = admin) => t.api('GET', url, { token });
  const post = (body: unknown, token: string | undefined = admin) => t.api('POST', '/event_aux_data', { token, body });
  const patch = (id: string, body: unknown) => t.api('PATCH', `/event_aux_data/${id}`, { token: admin, body });
  const capture = (...channels: WsChannel[]) => {
    const seen: Array<[string, Json]> = [];
    const offs = channels.map((c) => t.ctx.bus.subscribe(c, (payload) => seen.push([c, payload as Json])));
    return { seen, stop: () => offs.forEach((off) => off()) };
  };
  const liveEvent = async () =>
    ((await t.api('POST', '/events', { token: admin, body: { event_value: 'FISH' } })).json() as { insertedId: string })
      .insertedId;

  describe('create (an upsert by event and data source: the inserter scripts post again)', () => {
    it('inserts (201, insert result), then replaces data_array for the same event and source (204)', async () => {
      const [eventId] = await insertEvents(t.ctx.database.db, [{ ts: at(1), event_value: 'FISH' }]);
      const created = await post({ event_id: eventId, data_source: 'vehicleRealtimeNavData', data_array: nav });
      expect(created.statusCode, created.body).toBe(201);
      const { insertedId } = created.json() as { insertedId: string };
      expect(created.json()).toEqual({ acknowledged: true, insertedId });
      const replaced = await post({
        event_id: eventId,
        data_source: 'vehicleRealtimeNavData',
        data_array: [{ data_name: 'depth', data_value: '10' }],
      });
      expect(replaced.statusCode).toBe(204);
      expect(replaced.body).toBe('');
      expect((await get(`/event_aux_data/${insertedId}`)).json()).toEqual({
        id: insertedId,
        event_id: eventId,
        data_source: 'vehicleRealtimeNavData',
        data_array: [{ data_name: 'depth', data_value: '10' }],
      });
      const other = await post({ event_id: eventId, data_source: 'framegrabber', data_array: [] });
      expect(other.statusCode).toBe(201);
    });

    it('accepts an empty or missing data_uom (the influx inserter sends ""), numbers and a missing data_array', async () => {
      const [eventId] = await insertEvents(t.ctx.database.db, [{ ts: at(1), event_value: 'FISH' }]);
      const res = await post({
        event_id: eventId,
        data_source: 'influx',
        data_array: [
          { data_name: 'a', data_value: 1.5, data_uom: '' },
          { data_name: 'b', data_value: '' },
        ],
      });
      expect(res.statusCode, res.body).toBe(201);
      const empty = await post({ event_id: eventId, data_source: 'nothing' });
      expect(empty.statusCode).toBe(201);
      expect((await get(`/event_aux_data/${(empty.json() as Json).insertedId}`)).json()).toMatchObject({
        data_array: [],
      });
    });

    it('takes a client id: created with it, replaced on a repeat; never creates an orphan', async () => {
      const [eventId] = await insertEvents(t.ctx.database.db, [{ ts: at(1), event_value: 'FISH' }]);
      const auxId = newObjectId();
      const first = await post({
        id: auxId,
        event_id: eventId,
        data_source: 'vehicleRealtimeNavData',
        data_array: nav,
      });
      expect(first.json()).toEqual({ acknowledged: true, insertedId: auxId });
      expect(
        (await post({ id: auxId, event_id: eventId, data_source: 'vehicleRealtimeNavData', data_array: [] }))
          .statusCode,
      ).toBe(204);
      expect((await get(`/event_aux_data/${auxId}`)).json()).toMatchObject({ data_array: [] });
      // Another id for a pair that already has a record: the record is replaced, not duplicated.
      expect(
        (await post({ id: newObjectId(), event_id: eventId, data_source: 'vehicleRealtimeNavData', data_array: nav }))
          .statusCode,
      ).toBe(204);
      expect((await get(`/event_aux_data?eventID=${eventId}`)).json()).toEqual([
        { id: auxId, event_id: eventId, data_source: 'vehicleRealtimeNavData', data_array: nav },
      ]);

      for (const body of [
        { event_id: newObjectId(), data_source: 'x', data_array: [] },
        { id: newObjectId(), event_id: newObjectId(), data_source: 'x', data_array: [] },
      ]) {
        expect((await post(body)).json()).toEqual({
          statusCode: 400,
          error: 'Bad Request',
          message: 'event not found',
        });
      }
      expect((await get('/event_aux_data')).json()).toHaveLength(1);
    });

    it('refuses bad bodies with 400 naming the field', async () => {
      const [eventId] = await insertEvents(t.ctx.database.db, [{ ts: at(1), event_value: 'FISH' }]);
      const cases: Array<[unknown, string]> = [
        [{ data_source: 'x' }, '"event_id" is required'],
        [{ event_id: 'abc', data_source: 'x' }, '"event_id" must be a 24-character hex id'],
        [{ event_id: eventId }, '"data_source" is required'],
        [{ event_id: eventId, data_source: '' }, '"data_source" is not allowed to be empty'],
        [{ event_id: eventId, data_source: 'x', extra: 1 }, '"extra" is not allowed'],
        [
          { event_id: eventId, data_source: 'x', data_array: [{ data_value: '1' }] },
          '"data_array[0].data_name" is required',
        ],
        [
          { event_id: eventId, data_source: 'x', data_array: [{ data_name: 'a' }] },
          '"data_array[0].data_value" is required',
        ],
        [
          { event_id: eventId, data_source: 'x', data_array: [{ data_name: 'a', data_value: null }] },
          '"data_array[0].data_value" must be a string',
        ],
        [
          { event_id: eventId, data_source: 'x', data_array: [{ data_name: 'a', data_value: '1', data_uom: 3 }] },
          '"data_array[0].data_uom" must be a string',
        ],
        [
          { event_id: eventId, data_source: 'x', data_array: [{ data_name: 'a', data_value: '1', unit: 'm' }] },
          '"data_array[0].unit" is not allowed',
        ],
      ];
      for (const [body, message] of cases) {
        expect((await post(body)).json(), JSON.stringify(body)).toEqual({
          statusCode: 400,
          error: 'Bad Request',
          message,
        });
      }
    });

    it('publishes newEventAuxData for a live event only, and updateEventAuxData when a live upsert changes data', async () => {
      const live = await liveEvent();
      const [old] = await insertEvents(t.ctx.database.db, [{ ts: at(1), event_value: 'FISH' }]);
      const tap = capture('newEventAuxData', 'updateEventAuxData');
      try {
        const res = await post({ event_id: live, data_source: 'vehicleRealtimeNavData', data_array: nav });
        await post({ event_id: old, data_source: 'vehicleRealtimeNavData', data_array: nav });
        await post({ event_id: live, data_source: 'vehicleRealtimeNavData', data_array: nav });
        await post({ event_id: live, data_source: 'vehicleRealtimeNavData', data_array: [] });
        const id = (res.json() as { insertedId: string }).insertedId;
        expect(tap.seen).toEqual([
          ['newEventAuxData', { id, event_id: live, data_source: 'vehicleRealtimeNavData', data_array: nav }],
          ['updateEventAuxData', { id, event_id: live, data_source: 'vehicleRealtimeNavData', data_array: [] }],
        ]);
      } finally {
        tap.stop();
      }
    });
  });

  describe('update and delete', () => {
    it('merges data_array by name with the new values winning, and keeps event_id when not given (Sealog let stored values win and lost the event)', async () => {
      const [eventId] = await insertEvents(t.ctx.database.db, [{ ts: at(1), event_value: 'FISH' }]);
      const [auxId] = await insertAux(t.ctx.database.db, [framegrabData(eventId!, 1)]);
      const tap = capture('updateEventAuxData');
      try {
        const res = await patch(auxId!, {
          data_array: [
            { data_name: 'filename', data_value: '/images/new_main.jpg' },
            { data_name: 'focus', data_value: 2.5, data_uom: 'm' },
          ],
        });
        expect(res.statusCode, res.body).toBe(204);
        const expected = {
          id: auxId,
          event_id: eventId,
          data_source: 'framegrabber',
          data_array: [
            { data_name: 'camera_name', data_value: 'Main Camera' },
            { data_name: 'filename', data_value: '/images/new_main.jpg' },
            { data_name: 'camera_name', data_value: 'Down Camera' },
            { data_name: 'filename', data_value: '/images/down_1.jpg' },
            { data_name: 'focus', data_value: 2.5, data_uom: 'm' },
          ],
        };
        expect((await get(`/event_aux_data/${auxId}`)).json()).toEqual(expected);
        expect(tap.seen).toEqual([['updateEventAuxData', expected]]);
        // A PATCH that changes nothing stores and announces nothing.
        expect((await patch(auxId!, { data_source: 'framegrabber' })).statusCode).toBe(204);
        expect(tap.seen).toHaveLength(1);
      } finally {
        tap.stop();
      }
    });

    it('moves a record to another existing event; refuses an unknown event, a taken pair, an empty body; 404 when missing', async () => {
      const [a, b] = await insertEvents(t.ctx.database.db, [
        { ts: at(1), event_value: 'FISH' },
        { ts: at(2), event_value: 'CORAL' },
      ]);
      const [navA, frameA, navB] = await insertAux(t.ctx.database.db, [
        navData(a!, 1),
        framegrabData(a!, 1),
        navData(b!, 2),
      ]);
      expect((await patch(frameA!, { event_id: b })).statusCode).toBe(204);
      expect((await get(`/event_aux_data/${frameA}`)).json()).toMatchObject({ event_id: b });
      expect((await patch(navA!, { event_id: newObjectId() })).json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'event not found',
      });
      expect((await patch(navA!, { event_id: b })).json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'aux data for this event and data source already exists',
      });
      expect((await patch(navB!, {})).json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: '"eventAuxDataUpdate" must have at least 1 key',
      });
      const missing = newObjectId();
      expect((await patch(missing, { data_source: 'x' })).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: `No record found for id: ${missing}`,
      });
      expect((await get(`/event_aux_data/${navA}`)).json()).toMatchObject({ event_id: a });
    });

    it('deletes a record and publishes deleteEventAuxData; 404 when missing', async () => {
      const [eventId] = await insertEvents(t.ctx.database.db, [{ ts: at(1), event_value: 'FISH' }]);
      const [auxId] = await insertAux(t.ctx.database.db, [navData(eventId!, 1)]);
      const tap = capture('deleteEventAuxData');
      try {
        expect((await t.api('DELETE', `/event_aux_data/${auxId}`, { token: admin })).statusCode).toBe(204);
        expect(tap.seen).toEqual([
          [
            'deleteEventAuxData',
            {
              id: auxId,
              event_id: eventId,
              data_source: 'vehicleRealtimeNavData',
              data_array: navData(eventId!, 1).data_array,
            },
          ],
        ]);
        expect((await get(`/event_aux_data/${auxId}`)).json()).toEqual({
          statusCode: 404,
          error: 'Not Found',
          message: `No record found for id: ${auxId}`,
        });
        expect((await t.api('DELETE', `/event_aux_data/${auxId}`, { token: admin })).statusCode).toBe(404);
      } finally {
        tap.stop();
      }
    });
  });

  describe('lists', () => {
    let ids: string[];
    let aux: string[];
    beforeEach(async () => {
      ids = await insertEvents(t.ctx.database.db, [
        { ts: at(1), event_value: 'ASNAP', event_author: 'admin' },
        { ts: at(2), event_value: 'FISH', event_author: 'alice' },
        { ts: at(3), event_value: 'SAMPLE', event_author: 'bob', event_free_text: 'push core' },
        { ts: at(4), event_value: 'ASNAP', event_author: 'admin' },
      ]);
      aux = await insertAux(t.ctx.database.db, [
        navData(ids[0]!, 0),
        framegrabData(ids[0]!, 0),
        navData(ids[1]!, 1),
        navData(ids[2]!, 2),
        framegrabData(ids[2]!, 2),
        navData(ids[3]!, 3),
        framegrabData(ids[3]!, 3),
      ]);
    });
    const idsOf = (res: { json(): unknown }) => (res.json() as Json[]).map((a) => aux.indexOf(a.id as string));

    it('lists all records, by eventID, by exact datasource; offset and limit count records', async () => {
      expect(idsOf(await get('/event_aux_data'))).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(idsOf(await get(`/event_aux_data?eventID=${ids[2]}`))).toEqual([3, 4]);
      expect(idsOf(await get('/event_aux_data?datasource=framegrabber'))).toEqual([1, 4, 6]);
      expect(idsOf(await get(`/event_aux_data?datasource=framegrabber&eventID=${ids[0]}`))).toEqual([1]);
      expect(idsOf(await get('/event_aux_data?offset=2&limit=3'))).toEqual([2, 3, 4]);
      // Exact sources here (Sealog): a part of a name finds nothing.
      expect((await get('/event_aux_data?datasource=frame')).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'No records found',
      });
    });

    it('with event filters, lists the aux data of the matching events in event order', async () => {
      expect(idsOf(await get('/event_aux_data?value=!ASNAP'))).toEqual([2, 3, 4]);
      expect(idsOf(await get('/event_aux_data?value=!ASNAP&datasource=framegrabber'))).toEqual([4]);
      expect(idsOf(await get('/event_aux_data?author=ali'))).toEqual([2]);
      expect(idsOf(await get('/event_aux_data?freetext=PUSH'))).toEqual([3, 4]);
      expect(idsOf(await get(`/event_aux_data?startTS=${at(3)}&limit=2`))).toEqual([3, 4]);
      expect(idsOf(await get(`/event_aux_data?startTS=${at(1)}&offset=1&limit=2`))).toEqual([1, 2]);
    });

    it('fulltext: case-insensitive substrings of data values and names, `!` excludes, with the other filters', async () => {
      expect(idsOf(await get('/event_aux_data?fulltext=MAIN_2'))).toEqual([4]);
      expect(idsOf(await get('/event_aux_data?fulltext=camera_NAME'))).toEqual([1, 4, 6]);
      expect(idsOf(await get('/event_aux_data?fulltext=main_0,main_3'))).toEqual([1, 6]);
      expect(idsOf(await get('/event_aux_data?fulltext=!camera'))).toEqual([0, 2, 3, 5]);
      expect(idsOf(await get('/event_aux_data?fulltext=down&fulltext=!DOWN_3'))).toEqual([1, 4]);
      // Terms shorter than the index's trigrams are still searched.
      expect(idsOf(await get('/event_aux_data?fulltext=_3'))).toEqual([6]);
      expect(idsOf(await get(`/event_aux_data?eventID=${ids[2]}&fulltext=23.55`))).toEqual([3]);
      expect(idsOf(await get('/event_aux_data?fulltext=camera&limit=1&offset=1'))).toEqual([4]);
      expect(idsOf(await get('/event_aux_data?value=!ASNAP&fulltext=camera'))).toEqual([4]);
      expect(idsOf(await get('/event_aux_data?datasource=vehicleRealtimeNavData&fulltext=!1003'))).toEqual([0, 2, 3]);
      // A term is text, never a pattern.
      for (const term of ['%', 'main_.', '.*'])
        expect((await get(`/event_aux_data?fulltext=${encodeURIComponent(term)}`)).statusCode, term).toBe(404);
      const lowering = await insertLowering(t.ctx.database.db, { start_ts: at(2), stop_ts: at(10) });
      expect(idsOf(await get(`/event_aux_data/bylowering/${lowering}?fulltext=Down`))).toEqual([4, 6]);
      const cruise = await insertCruise(t.ctx.database.db, { start_ts: at(0), stop_ts: at(2) });
      expect(idsOf(await get(`/event_aux_data/bycruise/${cruise}?fulltext=!camera`))).toEqual([0, 2]);
    });

    it('fulltext follows writes: numbers, replaced and merged data, deleted records', async () => {
      const created = await post({
        event_id: ids[1],
        data_source: 'ctd',
        data_array: [{ data_name: 'Salinity', data_value: 34.871, data_uom: 'psu' }],
      });
      const ctdId = (created.json() as { insertedId: string }).insertedId;
      expect((await get('/event_aux_data?fulltext=34.87')).json()).toMatchObject([{ id: ctdId }]);
      expect((await get('/event_aux_data?fulltext=salinity')).json()).toMatchObject([{ id: ctdId }]);
      await patch(ctdId, { data_array: [{ data_name: 'Salinity', data_value: 35.002 }] });
      expect((await get('/event_aux_data?fulltext=34.87')).statusCode).toBe(404);
      expect((await get('/event_aux_data?fulltext=35.002')).json()).toMatchObject([{ id: ctdId }]);
      await post({ event_id: ids[1], data_source: 'ctd', data_array: [{ data_name: 'oxygen', data_value: 'low' }] });
      expect((await get('/event_aux_data?fulltext=oxygen')).json()).toMatchObject([{ id: ctdId }]);
      expect((await get('/event_aux_data?fulltext=salinity')).statusCode).toBe(404);
      await t.api('DELETE', `/event_aux_data/${ctdId}`, { token: admin });
      expect((await get('/event_aux_data?fulltext=oxygen')).statusCode).toBe(404);
    });

    it('documents fulltext in OpenAPI on the three lists', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/sealog-server/swagger.json' })).json() as {
        paths: Record<string, { get?: { parameters?: Array<{ name: string; in: string; description?: string }> } }>;
      };
      for (const route of ['/event_aux_data', '/event_aux_data/bycruise/{id}', '/event_aux_data/bylowering/{id}']) {
        const param = doc.paths[`/sealog-server/api/v1${route}`]?.get?.parameters?.find((p) => p.name === 'fulltext');
        expect(param, route).toMatchObject({ in: 'query' });
        expect(param?.description, route).toMatch(/substring search over the data names and values/);
      }
    });

    it('refuses eventID with event filters, and format', async () => {
      expect((await get(`/event_aux_data?eventID=${ids[0]}&author=x`)).json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'Cannot include param eventID when using author, value, freetext, startTS or stopTS',
      });
      expect((await get('/event_aux_data?format=csv')).statusCode).toBe(400);
      expect((await get('/event_aux_data?eventID=123')).statusCode).toBe(400);
    });

    it('by cruise and by lowering: the window, filters, and the not-found answers Sealog gives', async () => {
      const cruise = await insertCruise(t.ctx.database.db, { start_ts: at(0), stop_ts: at(2) });
      const lowering = await insertLowering(t.ctx.database.db, { start_ts: at(2), stop_ts: at(10) });
      expect(idsOf(await get(`/event_aux_data/bycruise/${cruise}`))).toEqual([0, 1, 2]);
      expect(idsOf(await get(`/event_aux_data/bylowering/${lowering}?datasource=framegrabber&value=!ASNAP`))).toEqual([
        4,
      ]);
      expect(
        idsOf(
          await get(
            `/event_aux_data/bylowering/${lowering}?datasource=framegrabber&datasource=vehicleRealtimeNavData&limit=2`,
          ),
        ),
      ).toEqual([2, 3]);
      const empty = await insertLowering(t.ctx.database.db, { start_ts: at(100), stop_ts: at(200) });
      expect((await get(`/event_aux_data/bylowering/${empty}`)).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'No records found',
      });
      const missing = newObjectId();
      expect((await get(`/event_aux_data/bycruise/${missing}`)).json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: `Cruise not found for id${missing}`,
      });
      expect((await get(`/event_aux_data/bylowering/${missing}`)).json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: 'lowering not found for that id',
      });
    });
  });

  describe('roles', () => {
    it('read with read_events, write with write_events; watchers only read', async () => {
      const [eventId] = await insertEvents(t.ctx.database.db, [{ ts: at(1), event_value: 'FISH' }]);
      const [auxId] = await insertAux(t.ctx.database.db, [navData(eventId!, 1)]);
      for (const who of [
        'admin',
        'cruise_manager',
        'event_manager',
        'template_manager',
        'event_logger',
        'event_watcher',
        'guest',
      ] as const) {
        expect((await get(`/event_aux_data/${auxId}`, users.tokens[who])).statusCode, who).toBe(200);
      }
      // Someone else's event (here one of unknown creator): admins, event managers (the demo guest is one).
      for (const who of ['event_manager', 'guest'] as const) {
        expect(
          (await post({ event_id: eventId, data_source: who, data_array: [] }, users.tokens[who])).statusCode,
          who,
        ).toBe(201);
      }
      for (const who of ['cruise_manager', 'template_manager', 'event_logger'] as const) {
        expect(
          (await post({ event_id: eventId, data_source: who, data_array: [] }, users.tokens[who])).statusCode,
          who,
        ).toBe(403);
      }
      expect(
        (await post({ event_id: eventId, data_source: 'w', data_array: [] }, users.tokens.event_watcher)).statusCode,
      ).toBe(403);
      expect(
        (await t.api('DELETE', `/event_aux_data/${auxId}`, { token: users.tokens.event_watcher })).statusCode,
      ).toBe(403);
      expect(
        (
          await t.api('PATCH', `/event_aux_data/${auxId}`, {
            token: users.tokens.event_watcher,
            body: { data_source: 'x' },
          })
        ).statusCode,
      ).toBe(403);
      expect((await t.api('GET', '/event_aux_data')).statusCode).toBe(401);
      expect((await get('/event_aux_data', users.tokens.disabled)).statusCode).toBe(401);
    });

    it("follows the event's change rule: a logger changes only its own events' aux data", async () => {
      const logger = users.tokens.event_logger!;
      const mine = (await t.api('POST', '/events', { token: logger, body: { event_value: 'MINE' } })).json() as {
        insertedId: string;
      };
      const theirs = await liveEvent();
      const theirAux = (
        (await post({ event_id: theirs, data_source: 'vehicleRealtimeNavData', data_array: nav })).json() as {
          insertedId: string;
        }
      ).insertedId;
      const before = (await get(`/event_aux_data/${theirAux}`)).json();
      const refused = {
        statusCode: 403,
        error: 'Forbidden',
        message:
          'Only admins, event managers, aux-data inserters and whoever created this event can change its aux data',
      };
      const tries = [
        // New navigation for someone else's event, as an upsert over its record and as a new source.
        () => post({ event_id: theirs, data_source: 'vehicleRealtimeNavData', data_array: [] }, logger),
        () => post({ event_id: theirs, data_source: 'myNav', data_array: nav }, logger),
        () => post({ id: theirAux, event_id: mine.insertedId, data_source: 'x', data_array: [] }, logger),
        () => t.api('PATCH', `/event_aux_data/${theirAux}`, { token: logger, body: { data_array: [] } }),
        () => t.api('DELETE', `/event_aux_data/${theirAux}`, { token: logger }),
      ];
      for (const attempt of tries) {
        const res = await attempt();
        expect(res.json()).toEqual(refused);
      }
      expect((await get(`/event_aux_data/${theirAux}`)).json()).toEqual(before);
      expect((await get(`/event_aux_data?eventID=${theirs}`)).json()).toHaveLength(1);

      // Its own event's aux data: written, changed, not moved onto someone else's event, deleted.
      const own = await post({ event_id: mine.insertedId, data_source: 'myNav', data_array: nav }, logger);
      expect(own.statusCode).toBe(201);
      const ownId = (own.json() as { insertedId: string }).insertedId;
      const patchOwn = (body: unknown) => t.api('PATCH', `/event_aux_data/${ownId}`, { token: logger, body });
      expect((await patchOwn({ data_array: [{ data_name: 'depth', data_value: '5' }] })).statusCode).toBe(204);
      expect((await patchOwn({ event_id: theirs })).json()).toEqual(refused);
      expect((await t.api('DELETE', `/event_aux_data/${ownId}`, { token: logger })).statusCode).toBe(204);
    });

    it('lets a device key named an aux-data inserter write any event’s aux data; a logging key only its own', async () => {
      const theirs = await liveEvent();
      const key = async (roles: string[]) =>
        (
          (
            await t.api('POST', '/device_keys', { token: admin, body: { name: `k-${newObjectId()}`, roles } })
          ).json() as {
            key: string;
          }
        ).key;
      const inserter = await key(['aux_data_inserter']);
      const loggerKey = await key(['event_logger']);
      const body = { ...framegrabData(theirs, 1) };
      expect((await post(body, inserter)).statusCode).toBe(201);
      const replaced = await post({ ...body, data_array: [] }, inserter);
      expect(replaced.statusCode).toBe(204);
      expect((await post({ ...body, data_source: 'other' }, loggerKey)).statusCode).toBe(403);
      // The key's own event: the logging key writes its aux data.
      const own = (await t.api('POST', '/events', { token: loggerKey, body: { event_value: 'KEY' } })).json() as {
        insertedId: string;
      };
      expect((await post({ ...body, event_id: own.insertedId }, loggerKey)).statusCode).toBe(201);
    });
  });
});
