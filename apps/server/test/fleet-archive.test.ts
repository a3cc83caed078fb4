import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsPath, type SyncChange, type SyncChangesPage } from '@bathylog/shared';
import { listenInRange, RawClient, scriptHello } from '../src/realtime/testing/ws-test-client.js';
import { insertAux, insertCruise, insertEvents, insertLowering, navData } from './table-fixtures.js';
import { createTestApp, engines, type TestApp } from './test-app.js';

/**
 * A fleet shore: records judge the events of their own origin only. Ship A's private cruise and
 * ship B's public dive fall in the same week, and so do the shore's own private cruise and another
 * public dive of B. The archive reader (anonymous visitor and guest) and, with access control, a
 * user off the private cruises' access lists see all of B's dive events and none of the private
 * cruises' events, in lists, a dive's event lists, exports and a websocket push.
 */

const api = '/sealog-server/api/v1';
const shipA = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const shipB = 'bbbbbbbbbbbbbbbbbbbbbbbb';

const modes = engines.flatMap((e) => [[e, 'public archive'] as const, [e, 'access control'] as const]);

describe.each(modes)('records open only their own origin’s events (%s, %s)', (engine, mode) => {
  let t: TestApp;
  const dives: string[] = [];
  const open: string[] = [];
  const closed: string[] = [];
  const openAux: string[] = [];
  /** B1's cruise and dive. */
  const ownRecords: string[] = [];
  const readers: Array<string | undefined> = [];

  beforeAll(async () => {
    const archive = mode === 'public archive';
    t = await createTestApp(engine, archive ? { publicArchive: true } : { useAccessControl: true });
    const db = t.ctx.database.db;
    // Private: off the archive, and with access control on a list that names someone else.
    const accessList = archive ? [] : ['64b7f0c2a1b2c3d4e5f60718'];
    const cruiseA = await insertCruise(db, {
      cruise_id: 'A-PRIV',
      start_ts: '2024-06-01T00:00:00.000Z',
      stop_ts: '2024-06-30T00:00:00.000Z',
      accessList,
    });
    const ownCruise = await insertCruise(db, {
      cruise_id: 'SHORE-PRIV',
      start_ts: '2024-08-01T00:00:00.000Z',
      stop_ts: '2024-08-31T00:00:00.000Z',
      accessList,
    });
    const cruisesB = [
      await insertCruise(db, {
        cruise_id: 'B-1',
        start_ts: '2024-06-10T00:00:00.000Z',
        stop_ts: '2024-06-20T00:00:00.000Z',
      }),
      await insertCruise(db, {
        cruise_id: 'B-2',
        start_ts: '2024-08-10T00:00:00.000Z',
        stop_ts: '2024-08-20T00:00:00.000Z',
      }),
    ];
    // Ship A's public cruise and dive spanning B1's time (not A's event's), starting after B's own: not B1's records.
    const cruiseAPub = await insertCruise(db, {
      cruise_id: 'A-PUB',
      start_ts: '2024-06-12T00:00:00.000Z',
      stop_ts: '2024-06-15T10:30:00.000Z',
    });
    const diveAPub = await insertLowering(db, {
      lowering_id: 'A-PUB-D',
      start_ts: '2024-06-15T00:00:00.000Z',
      stop_ts: '2024-06-15T10:30:00.000Z',
    });
    await db
      .updateTable('cruises')
      .set({ cruise_public: 1 })
      .where('id', 'in', [...cruisesB, cruiseAPub])
      .execute();
    dives.push(
      await insertLowering(db, {
        lowering_id: 'B-D1',
        start_ts: '2024-06-14T00:00:00.000Z',
        stop_ts: '2024-06-16T00:00:00.000Z',
      }),
      await insertLowering(db, {
        lowering_id: 'B-D2',
        start_ts: '2024-08-14T00:00:00.000Z',
        stop_ts: '2024-08-16T00:00:00.000Z',
      }),
    );
    const eventsB = await insertEvents(db, [
      { ts: Date.parse('2024-06-15T10:00:00.000Z'), event_value: 'OPEN_B1' },
      { ts: Date.parse('2024-08-15T10:00:00.000Z'), event_value: 'OPEN_B2' },
    ]);
    const eventsA = await insertEvents(db, [{ ts: Date.parse('2024-06-15T11:00:00.000Z'), event_value: 'SECRET_A' }]);
    const ownEvents = await insertEvents(db, [
      { ts: Date.parse('2024-08-15T11:00:00.000Z'), event_value: 'SECRET_SHORE' },
    ]);
    await db
      .insertInto('sync_origins')
      .values([
        { record_type: 'cruise', record_id: cruiseA, ship_id: shipA },
        { record_type: 'cruise', record_id: cruiseAPub, ship_id: shipA },
        { record_type: 'lowering', record_id: diveAPub, ship_id: shipA },
        ...cruisesB.map((id) => ({ record_type: 'cruise', record_id: id, ship_id: shipB })),
        ...dives.map((id) => ({ record_type: 'lowering', record_id: id, ship_id: shipB })),
        ...eventsB.map((id) => ({ record_type: 'event', record_id: id, ship_id: shipB })),
        ...eventsA.map((id) => ({ record_type: 'event', record_id: id, ship_id: shipA })),
      ])
      .execute();
    // Each event's position; the private events' latitudes (24.x) mark them in a track.
    const auxB = await insertAux(
      db,
      eventsB.map((id, n) => navData(id, n)),
    );
    const auxClosed = await insertAux(
      db,
      [...eventsA, ...ownEvents].map((id, n) => ({
        ...navData(id, n),
        data_array: [
          { data_name: 'latitude', data_value: `24.7${n}0000`, data_uom: 'ddeg' },
          { data_name: 'longitude', data_value: '-45.140000', data_uom: 'ddeg' },
        ],
      })),
    );
    open.push(...eventsB);
    ownRecords.push(cruisesB[0]!, dives[0]!);
    openAux.push(...auxB);
    closed.push(...eventsA, ...ownEvents, ...auxClosed);
    expect(ownCruise).toBeTruthy();
    readers.push(await t.login('guest', ''));
    if (archive) readers.push(undefined);
  });
  afterAll(() => t?.close());

  const get = async (url: string, token: string | undefined) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${api}${url}`,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.body;
  };

  it('lists, dive event lists and exports hold every event of B’s dives and none of the private cruises’', async () => {
    for (const token of readers) {
      const urls = [
        '/events',
        ...dives.map((d) => `/events/bylowering/${d}`),
        ...dives.map((d) => `/event_exports/bylowering/${d}`),
      ];
      for (const url of urls) {
        const body = await get(url, token);
        for (const m of ['SECRET_A', 'SECRET_SHORE', ...closed]) expect(body, url).not.toContain(m);
      }
      const all = await get('/events', token);
      for (const id of open) expect(all).toContain(id);
      expect(await get(`/events/bylowering/${dives[0]}`, token)).toContain('OPEN_B1');
      expect(await get(`/events/bylowering/${dives[1]}`, token)).toContain('OPEN_B2');
      expect(await get(`/event_exports/bylowering/${dives[0]}`, token)).toContain('OPEN_B1');
      expect(await get(`/event_exports/bylowering/${dives[1]}`, token)).toContain('OPEN_B2');
      for (const id of open) expect(await get(`/events/${id}`, token)).toContain(id);
    }
  });

  it('aux-data lists, dive metrics, completeness and tracks hold B’s dives’ data and none of the private cruises’', async () => {
    for (const token of readers) {
      const lists = ['/event_aux_data', ...dives.map((d) => `/event_aux_data/bylowering/${d}`)];
      for (const url of lists) {
        const body = await get(url, token);
        for (const m of ['24.7', ...closed]) expect(body, url).not.toContain(m);
      }
      const all = await get('/event_aux_data', token);
      for (const id of openAux) expect(all).toContain(id);
      for (const [n, d] of dives.entries()) {
        expect(await get(`/event_aux_data/bylowering/${d}`, token)).toContain(openAux[n]!);
        const metrics = JSON.parse(await get(`/lowerings/${d}/metrics`, token)) as Record<string, unknown>;
        expect(metrics.events_total, `metrics of dive ${n}`).toBe(1);
        expect(metrics.position_source).toBe('vehicleRealtimeNavData');
        const completeness = JSON.parse(await get(`/lowerings/${d}/completeness`, token)) as Record<string, unknown>;
        expect(completeness.events_total, `completeness of dive ${n}`).toBe(1);
        // The dive track (the GeoJSON and KML exports draw theirs from the same read) is B's alone.
        const track = JSON.parse(await get(`/tracks/bylowering/${d}`, token)) as { eventIds: string[] };
        expect(track.eventIds, `track of dive ${n}`).toEqual([open[n]]);
        expect(await get(`/gis_exports/bylowering/${d}`, token)).not.toContain('24.7');
      }
    }
  });

  it('byevent names the cruise and dive of the event’s own ship', async () => {
    for (const token of readers) {
      const cruise = JSON.parse(await get(`/cruises/byevent/${open[0]}`, token)) as { id: string };
      expect(cruise.id).toBe(ownRecords[0]);
      const dive = JSON.parse(await get(`/lowerings/byevent/${open[0]}`, token)) as { id: string };
      expect(dive.id).toBe(ownRecords[1]);
    }
  });

  it('a follower key’s change feed holds B’s dive events and their aux data and none of the private cruises’', async () => {
    // Without access control every follower reads everything: nothing to judge.
    if (mode !== 'access control') return;
    const admin = await t.login('admin', 'demo');
    const made = await t.api('POST', '/device_keys', {
      token: admin,
      body: { name: 'Reader shore', roles: ['follower'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { key } = made.json() as { key: string };
    const changes: SyncChange[] = [];
    for (let after: string | undefined, more = true; more;) {
      const q = new URLSearchParams({ max_bytes: '65536', ...(after !== undefined ? { after } : {}) });
      const res = await t.api('GET', `/sync/changes?${q}`, { token: key });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as SyncChangesPage;
      changes.push(...page.changes);
      after = page.next;
      more = page.more;
    }
    const upserts = changes.filter((c) => c.op === 'upsert').map((c) => c.record_id);
    for (const id of [...open, ...openAux]) expect(upserts).toContain(id);
    for (const id of closed) expect(upserts).not.toContain(id);
  });

  it('a newEvents push delivers B’s dive event and not the private cruise’s', async () => {
    const port = await listenInRange(t.app);
    const c = await RawClient.open(port);
    try {
      const reply = await c.call(scriptHello(await t.login('guest', ''), [wsPath('newEvents')]));
      expect(reply.type, JSON.stringify(reply)).toBe('hello');
      const next = c.nextPub(wsPath('newEvents'), 10_000);
      const push = (id: string, value: string, ts: string) =>
        t.ctx.bus.publish('newEvents', {
          id,
          ts,
          event_author: 'ship',
          event_value: value,
          event_options: [],
          event_free_text: '',
        });
      push(closed[0]!, 'SECRET_A', '2024-06-15T11:00:00.000Z');
      push(open[0]!, 'OPEN_B1', '2024-06-15T10:00:00.000Z');
      expect(JSON.stringify(await next)).toContain('OPEN_B1');
      expect(JSON.stringify(c.frames.filter((f) => f.type === 'pub'))).not.toContain('SECRET_A');
    } finally {
      c.close();
    }
  });
});
