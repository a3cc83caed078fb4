import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsPath } from '@bathylog/shared';
import { createCruise, createLowering, multipart } from './api-fixtures.js';
import { insertAux, insertEvents, navData } from './table-fixtures.js';
import { createTestApp, engines, type TestApp } from './test-app.js';
import { listenInRange, RawClient } from '../src/realtime/testing/ws-test-client.js';

/**
 * The public archive as an anonymous visitor (no token, no cookie): the public dive is browsable,
 * the embargoed one is a stub and nothing of it is reachable through any route of the server's own
 * route table or through the websocket, until the fake clock passes its embargo date; then it
 * opens by itself. With the archive off, anonymous callers are refused as before.
 */

const api = '/sealog-server/api/v1';
const files = '/sealog-server/files';
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const embargoEnd = Date.parse('2026-06-01T00:00:00.000Z');
const beforeEnd = embargoEnd - 1;

const publicCruise = { start_ts: '2023-03-03T00:00:00.000Z', stop_ts: '2023-04-11T23:59:59.000Z' };
const publicDive = { start_ts: '2023-03-14T22:15:39.479Z', stop_ts: '2023-03-15T08:32:32.654Z' };
const embargoedCruise = { start_ts: '2024-01-01T00:00:00.000Z', stop_ts: '2024-01-31T00:00:00.000Z' };
const embargoedDive = { start_ts: '2024-01-10T00:00:00.000Z', stop_ts: '2024-01-11T00:00:00.000Z' };
const embargoedRange = `startTS=${embargoedCruise.start_ts}&stopTS=${embargoedCruise.stop_ts}`;

interface Fixture {
  t: TestApp;
  admin: string;
  now: { value: number };
  pub: { cruise: string; lowering: string; event: string };
  emb: { cruise: string; lowering: string; event: string; aux: string[]; files: string[] };
  /** Strings only the embargoed (or private) records' data holds. */
  markers: string[];
}

function anonymous(t: TestApp, method: string, url: string, payload?: unknown) {
  return t.app.inject({
    method: method as 'GET',
    url,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

async function upload(t: TestApp, admin: string, kind: 'cruises' | 'lowerings', id: string, name: string) {
  const body = multipart([{ name: 'file', filename: name, contentType: 'text/plain', data: 'SECRETNOTES' }]);
  const res = await t.app.inject({
    method: 'POST',
    url: `${files}/${kind}/${id}`,
    headers: { authorization: `Bearer ${admin}`, ...body.headers },
    payload: body.payload,
  });
  if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  return `${files}/${kind}/${id}/${name}`;
}

async function setUp(engine: 'sqlite' | 'postgres', useAccessControl: boolean): Promise<Fixture> {
  const now = { value: beforeEnd };
  const t = await createTestApp(engine, { publicArchive: true, useAccessControl }, undefined, () => now.value);
  const admin = await t.login('admin', 'demo');
  const pubCruise = await createCruise(t, admin, { ...publicCruise, cruise_public: true });
  // Inherits its cruise's setting.
  const pubLowering = await createLowering(t, admin, { ...publicDive, lowering_id: 'S0492' });
  const embCruise = await createCruise(t, admin, {
    ...embargoedCruise,
    cruise_id: 'EMB2024',
    cruise_location: 'SECRETPLACE',
    cruise_public: true,
    cruise_embargo_until: new Date(embargoEnd).toISOString(),
    cruise_additional_meta: { cruise_name: 'Embargoed cruise', cruise_description: 'SECRETDESC' },
  });
  const embLowering = await createLowering(t, admin, {
    ...embargoedDive,
    lowering_id: 'S0600',
    lowering_location: 'SECRETPLACE',
    lowering_additional_meta: { lowering_name: 'Embargoed dive', lowering_description: 'SECRETDESC' },
  });
  // A private cruise (not public) and a private dive inside the public cruise.
  await createCruise(t, admin, {
    cruise_id: 'PRIV2022',
    start_ts: '2022-01-01T00:00:00.000Z',
    stop_ts: '2022-01-31T00:00:00.000Z',
  });
  await createLowering(t, admin, {
    lowering_id: 'S0493',
    start_ts: '2023-03-20T00:00:00.000Z',
    stop_ts: '2023-03-21T00:00:00.000Z',
    lowering_public: false,
  });
  const db = t.ctx.database.db;
  const [openEvent, secretEvent, privateEvent, diveOfPrivate, looseEvent] = await insertEvents(db, [
    { ts: Date.parse('2023-03-15T00:00:00.000Z'), event_value: 'OPENDIVE', event_author: 'admin' },
    { ts: Date.parse('2024-01-10T12:00:00.000Z'), event_value: 'SECRETDIVE', event_author: 'admin' },
    { ts: Date.parse('2022-01-10T12:00:00.000Z'), event_value: 'SECRETPRIVATE', event_author: 'admin' },
    { ts: Date.parse('2023-03-20T12:00:00.000Z'), event_value: 'SECRETPRIVATEDIVE', event_author: 'admin' },
    { ts: Date.parse('2021-06-01T00:00:00.000Z'), event_value: 'SECRETLOOSE', event_author: 'admin' },
  ]);
  await insertAux(db, [
    navData(openEvent!, 1),
    {
      event_id: openEvent!,
      data_source: 'framegrabber',
      data_array: [{ data_name: 'filename', data_value: '/grabs/open_grab.png' }],
    },
  ]);
  const aux = await insertAux(db, [
    navData(secretEvent!, 2),
    {
      event_id: secretEvent!,
      data_source: 'framegrabber',
      data_array: [{ data_name: 'filename', data_value: '/grabs/secret_grab.png' }],
    },
  ]);
  mkdirSync(t.ctx.paths.images, { recursive: true });
  writeFileSync(path.join(t.ctx.paths.images, 'open_grab.png'), tinyPng);
  writeFileSync(path.join(t.ctx.paths.images, 'secret_grab.png'), tinyPng);
  const embFiles = [
    await upload(t, admin, 'cruises', embCruise, 'cruise-notes.txt'),
    await upload(t, admin, 'lowerings', embLowering, 'dive-notes.txt'),
  ];
  return {
    t,
    admin,
    now,
    pub: { cruise: pubCruise, lowering: pubLowering, event: openEvent! },
    emb: { cruise: embCruise, lowering: embLowering, event: secretEvent!, aux, files: embFiles },
    markers: [
      'SECRETDIVE',
      'SECRETPLACE',
      'SECRETDESC',
      'SECRETNOTES',
      'SECRETPRIVATE',
      'SECRETLOOSE',
      'secret_grab',
      secretEvent!,
      privateEvent!,
      diveOfPrivate!,
      looseEvent!,
      ...aux,
    ],
  };
}

/** Every way to name the embargoed records' data in a route's path parameters. */
function pathsFor(fx: Fixture, url: string): string[] {
  if (url.endsWith('*')) {
    const base = url.slice(0, -1);
    return [
      ...fx.emb.files.filter((f) => f.startsWith(base)),
      `${base}secret_grab.png`,
      `${base}secret_grab.png?w=160`,
      `${base}${fx.emb.cruise}`,
    ];
  }
  if (!url.includes(':')) return [url];
  const ids = [fx.emb.cruise, fx.emb.lowering, fx.emb.event, ...fx.emb.aux];
  return ids.map((id) => url.replace(/:[A-Za-z_]+/g, id));
}

/** The list queries that would find the embargoed data if a route leaked it. */
const listQueries = [
  '',
  `?${embargoedRange}`,
  `?${embargoedRange}&format=csv`,
  '?value=SECRETDIVE',
  '?fulltext=SECRETDIVE',
  '?fulltext=secret_grab',
  '?format=csv&add_record_ids=true',
];

describe.each(engines.flatMap((e) => [[e, false] as const, [e, true] as const]))(
  'public archive as an anonymous visitor (%s, access control %s)',
  (engine, useAccessControl) => {
    let fx: Fixture;
    beforeAll(async () => {
      fx = await setUp(engine, useAccessControl);
    });
    afterAll(() => fx?.t.close());

    const get = (url: string) => anonymous(fx.t, 'GET', url.startsWith('/sealog-server') ? url : `${api}${url}`);

    it('browses the public cruise and dive: cruise, lowerings, events, aux data, images, exports, track', async () => {
      const cruises = await get('/cruises');
      expect(cruises.statusCode).toBe(200);
      const listed = (cruises.json() as Array<{ cruise_id: string }>).map((c) => c.cruise_id).sort();
      expect(listed).toEqual(['EMB2024', 'FKt230303']);
      const cruise = (await get(`/cruises/${fx.pub.cruise}`)).json() as Record<string, unknown>;
      expect(cruise).toMatchObject({ cruise_id: 'FKt230303', cruise_public: true, cruise_embargo_until: null });
      expect(cruise).not.toHaveProperty('cruise_access_list');
      const dives = (await get(`/lowerings/bycruise/${fx.pub.cruise}`)).json() as Array<Record<string, unknown>>;
      // The private dive S0493 is left out; S0492 shows its inherited setting.
      expect(dives.map((d) => d.lowering_id)).toEqual(['S0492']);
      expect(dives[0]).toMatchObject({ lowering_public: true, lowering_embargo_until: null });
      const events = await get(`/events/bylowering/${fx.pub.lowering}`);
      expect(events.statusCode).toBe(200);
      expect(events.body).toContain('OPENDIVE');
      const aux = await get(`/event_aux_data/bylowering/${fx.pub.lowering}`);
      expect(aux.statusCode).toBe(200);
      expect(aux.body).toContain('open_grab');
      const exported = await get(`/event_exports/bylowering/${fx.pub.lowering}?format=csv`);
      expect(exported.statusCode).toBe(200);
      expect(exported.body).toContain('OPENDIVE');
      expect((await get(`/tracks/bylowering/${fx.pub.lowering}`)).statusCode).toBe(200);
      expect((await get(`/gis_exports/bylowering/${fx.pub.lowering}?format=kml`)).statusCode).toBe(200);
      const image = await get(`${files}/images/open_grab.png`);
      expect(image.statusCode).toBe(200);
      expect(image.rawPayload.equals(tinyPng)).toBe(true);
      expect((await get(`/lowerings?lowering_id=S0492`)).json()).toMatchObject([{ id: fx.pub.lowering }]);
    });

    it('shows the embargoed cruise and dive as stubs: ids, name, dates and the date they open', async () => {
      const cruise = (await get(`/cruises/${fx.emb.cruise}`)).json() as Record<string, unknown>;
      expect(cruise).toEqual({
        cruise_id: 'EMB2024',
        cruise_location: '',
        start_ts: embargoedCruise.start_ts,
        stop_ts: embargoedCruise.stop_ts,
        cruise_additional_meta: { cruise_name: 'Embargoed cruise', cruise_files: [] },
        cruise_tags: [],
        cruise_hidden: false,
        cruise_public: true,
        cruise_embargo_until: new Date(embargoEnd).toISOString(),
        id: fx.emb.cruise,
      });
      const dives = (await get(`/lowerings/bycruise/${fx.emb.cruise}`)).json() as Array<Record<string, unknown>>;
      expect(dives).toEqual([
        expect.objectContaining({
          id: fx.emb.lowering,
          lowering_id: 'S0600',
          lowering_location: '',
          lowering_additional_meta: { lowering_name: 'Embargoed dive', lowering_files: [] },
          lowering_public: true,
          lowering_embargo_until: new Date(embargoEnd).toISOString(),
        }),
      ]);
      expect((await get(`/events/bylowering/${fx.emb.lowering}`)).statusCode).toBe(401);
      expect((await get(`/events/${fx.emb.event}`)).statusCode).toBe(404);
    });

    it('reaches nothing of the embargoed or private data through any route of the route table', async () => {
      const routes = fx.t.routes.filter((r) => r.url.startsWith('/sealog-server'));
      expect(routes.length).toBeGreaterThan(50);
      const leaks: string[] = [];
      const writes: string[] = [];
      for (const route of routes) {
        const isWrite = !['GET', 'HEAD'].includes(route.method);
        for (const base of pathsFor(fx, route.url)) {
          // Lists get every query that would find the data; routes naming a record, the CSV form too.
          const isList = route.method === 'GET' && base === route.url;
          const urls = isList
            ? listQueries.map((q) => base + q)
            : route.method === 'GET' && !base.includes('?')
              ? [base, `${base}?format=csv`]
              : [base];
          for (const url of urls) {
            const res = await anonymous(fx.t, route.method, url, isWrite ? {} : undefined);
            const where = `${route.method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`;
            expect(res.statusCode, where).toBeLessThan(500);
            const found = fx.markers.filter((m) => res.body.includes(m) && !url.includes(m));
            if (found.length > 0) leaks.push(`${where} → ${found.join(', ')}`);
            // Every authenticated write refuses the visitor before doing anything.
            if (isWrite && route.config.auth === true && res.statusCode !== 401) writes.push(where);
          }
        }
      }
      expect(leaks).toEqual([]);
      expect(writes).toEqual([]);
      // The route table says which routes admit the visitor; none of them writes.
      const admitting = routes.filter((r) => r.config.archive);
      expect(admitting.length).toBeGreaterThan(20);
      expect(admitting.filter((r) => !['GET', 'HEAD'].includes(r.method))).toEqual([]);
    }, 300_000);

    it('gets no websocket: a hello without a token is refused, so no channel is reachable', async () => {
      const port = await listenInRange(fx.t.app);
      const c = await RawClient.open(port);
      try {
        const reply = await c.call({ type: 'hello', id: 1, version: '2', subs: [wsPath('newEvents')] });
        expect(reply.statusCode).toBe(401);
        expect(reply).not.toHaveProperty('socket');
      } finally {
        c.close();
      }
    });

    it('opens the embargoed dive by itself once the clock passes its date', async () => {
      fx.now.value = embargoEnd;
      try {
        const cruise = (await get(`/cruises/${fx.emb.cruise}`)).json() as Record<string, unknown>;
        expect(cruise).toMatchObject({ cruise_location: 'SECRETPLACE' });
        const events = await get(`/events/bylowering/${fx.emb.lowering}`);
        expect(events.statusCode).toBe(200);
        expect(events.body).toContain('SECRETDIVE');
        expect((await get(`${files}/images/secret_grab.png`)).statusCode).toBe(200);
        expect((await get(fx.emb.files[1]!)).body).toBe('SECRETNOTES');
        expect((await get(`/event_exports?${embargoedRange}`)).body).toContain('SECRETDIVE');
        // Private records stay private.
        expect((await get('/events?value=SECRETPRIVATE')).statusCode).toBe(404);
        expect((await get('/events?value=SECRETPRIVATEDIVE')).statusCode).toBe(404);
        expect((await get('/events?value=SECRETLOOSE')).statusCode).toBe(404);
      } finally {
        fx.now.value = beforeEnd;
      }
    });

    it('signed-in users see everything as before; an admin edits the archive fields', async () => {
      const events = await fx.t.api('GET', `/events/bylowering/${fx.emb.lowering}`, { token: fx.admin });
      expect(events.body).toContain('SECRETDIVE');
      const patch = await fx.t.api('PATCH', `/lowerings/${fx.emb.lowering}`, {
        token: fx.admin,
        body: { lowering_public: false },
      });
      expect(patch.statusCode).toBe(204);
      expect((await get(`/lowerings/${fx.emb.lowering}`)).statusCode).toBe(401);
      const back = await fx.t.api('PATCH', `/lowerings/${fx.emb.lowering}`, {
        token: fx.admin,
        body: { lowering_public: null },
      });
      expect(back.statusCode).toBe(204);
      expect((await get(`/lowerings/${fx.emb.lowering}`)).json()).toMatchObject({ lowering_public: true });
      const bad = await fx.t.api('PATCH', `/cruises/${fx.emb.cruise}`, {
        token: fx.admin,
        body: { cruise_embargo_until: 'soon' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    });
  },
);

describe.each(engines)('public archive off (%s)', (engine) => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('anonymous callers get 401 as before, and the archive fields are neither shown nor accepted', async () => {
    t = await createTestApp(engine);
    const admin = await t.login('admin', 'demo');
    const id = await createCruise(t, admin);
    for (const url of ['/cruises', `/cruises/${id}`, '/lowerings', '/events', '/event_exports', '/event_aux_data']) {
      expect((await anonymous(t, 'GET', `${api}${url}`)).statusCode, url).toBe(401);
    }
    expect(t.routes.filter((r) => r.config.archive).length).toBeGreaterThan(0);
    const cruise = (await t.api('GET', `/cruises/${id}`, { token: admin })).json() as Record<string, unknown>;
    expect(cruise).not.toHaveProperty('cruise_public');
    const res = await t.api('PATCH', `/cruises/${id}`, { token: admin, body: { cruise_public: true } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: '"cruise_public" is not allowed' });
  });
});
