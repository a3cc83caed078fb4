import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newObjectId } from '@bathylog/shared';
import { createCruise, createLowering, createUser, filepondBody, multipart } from './api-fixtures.js';
import { insertAux, insertEvents, navData } from './table-fixtures.js';
import { createTestApp, engines, type TestApp } from './test-app.js';

/**
 * The event rule with access control on, generated from the server's route table: every route of
 * the event, aux-data, export, GIS, track and file families must declare how it stands to event
 * data (`config.access`) and must have a case below; each case is called by an outsider (signed
 * in, with the roles to call the route, but not on the dive's access list), by the member on the
 * list and by an admin. The outsider gets a refusal or an answer without the restricted dive's
 * events, aux data or images; the member and the admin get them.
 */

const api = '/sealog-server/api/v1';
const files = '/sealog-server/files';
const families = [
  /^\/sealog-server\/api\/v1\/(events|event_exports|event_aux_data|tracks|gis_exports)(\/|$)/,
  /^\/sealog-server\/files\//,
  /^\/sealog-server\/api\/v1\/publication\/(dwca|dwca_report|event_list)\//,
];

/** The smallest PNG (1×1). */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

type Who = 'outsider' | 'member' | 'admin';

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  raw?: { payload: Buffer | string; headers: Record<string, string> };
}

interface Fixture {
  t: TestApp;
  tokens: Record<Who, string>;
  cruise: string;
  lowering: string;
  /** The restricted dive's event, its aux records and its frame grab. */
  secretEvent: string;
  secretAux: string[];
  /** An event outside every restricted record. */
  openEvent: string;
  /** Strings that only the restricted dive's data holds. */
  markers: string[];
  /** Makes a fresh event inside the dive (for calls that consume one). */
  diveEvent(): Promise<string>;
  admin<T = Record<string, unknown>>(call: Call): Promise<T>;
}

/**
 * What a route must answer. `filtered`: 200 (or the route's 404 for an empty list) without the
 * dive's data for the outsider, with it for the member and the admin. Otherwise the statuses.
 */
interface Case {
  calls: Array<(fx: Fixture, who: Who) => Call | Promise<Call>>;
  outsider: 'filtered' | number | 'refused';
  member?: number;
  /** Only admins may call it: the member is refused like the outsider; `admin: null` skips the admin call. */
  adminOnly?: { admin: number | null };
  /** The answer is a file, not JSON: the member's body is not searched for the dive's markers. */
  binary?: boolean;
  /** A count (`{events}`): the outsider counts fewer events than the member (none of the dive's). */
  count?: boolean;
}

const diveRange = 'startTS=2023-03-14T22:15:39.479Z&stopTS=2023-03-15T08:32:32.654Z';
const secretTs = '2023-03-15T00:00:00.000Z';

const get = (url: string) => () => ({ method: 'GET' as const, url });

/** Uploads a file to a cruise or lowering as admin; answers its path under /files. */
async function recordFile(fx: Fixture, kind: 'cruises' | 'lowerings'): Promise<string> {
  const id = kind === 'cruises' ? fx.cruise : fx.lowering;
  const name = `notes-${newObjectId()}.txt`;
  const body = multipart([{ name: 'file', filename: name, contentType: 'text/plain', data: 'SECRETDIVE notes' }]);
  const res = await fx.t.app.inject({
    method: 'POST',
    url: `${files}/${kind}/${id}`,
    headers: { authorization: `Bearer ${fx.tokens.admin}`, ...body.headers },
    payload: body.payload,
  });
  if (res.statusCode !== 201) throw new Error(`record file: ${res.statusCode} ${res.body}`);
  return `${files}/${kind}/${id}/${name}`;
}

async function pendingUpload(fx: Fixture, kind: 'cruises' | 'lowerings'): Promise<string> {
  const id = kind === 'cruises' ? fx.cruise : fx.lowering;
  const body = filepondBody('pending.txt', 'x');
  const res = await fx.t.app.inject({
    method: 'POST',
    url: `${files}/${kind}/filepond/process/${id}`,
    headers: { authorization: `Bearer ${fx.tokens.admin}`, ...body.headers },
    payload: body.payload,
  });
  if (res.statusCode !== 201) throw new Error(`pending upload: ${res.statusCode} ${res.body}`);
  return res.body;
}

async function attachment(fx: Fixture): Promise<string> {
  const body = multipart([{ name: 'filepond', filename: 'pic.png', contentType: 'image/png', data: tinyPng }]);
  const res = await fx.t.app.inject({
    method: 'POST',
    url: `${files}/images/filepond/process/${await fx.diveEvent()}`,
    headers: { authorization: `Bearer ${fx.tokens.admin}`, ...body.headers },
    payload: body.payload,
  });
  if (res.statusCode !== 201) throw new Error(`attachment: ${res.statusCode} ${res.body}`);
  return res.body;
}

const recordFileCases = (kind: 'cruises' | 'lowerings'): Record<string, Case> => ({
  [`GET ${files}/${kind}/*`]: {
    calls: [async (fx) => ({ method: 'GET', url: await recordFile(fx, kind) })],
    outsider: 'refused',
    member: 200,
    binary: true,
  },
  [`POST ${files}/${kind}/filepond/process/:id`]: {
    calls: [
      (fx) => {
        const body = filepondBody('more.txt', 'x');
        const id = kind === 'cruises' ? fx.cruise : fx.lowering;
        return { method: 'POST', url: `${files}/${kind}/filepond/process/${id}`, raw: body };
      },
    ],
    outsider: 'refused',
    member: 201,
    binary: true,
  },
  // A pending upload belongs to no record yet and holds nothing of a dive: anyone who may upload may revert it.
  [`DELETE ${files}/${kind}/filepond/revert`]: {
    calls: [
      async (fx) => ({
        method: 'DELETE',
        url: `${files}/${kind}/filepond/revert`,
        raw: { payload: await pendingUpload(fx, kind), headers: { 'content-type': 'text/plain' } },
      }),
    ],
    outsider: 204,
    member: 204,
  },
  [`DELETE ${files}/${kind}/*`]: {
    calls: [async (fx) => ({ method: 'DELETE', url: await recordFile(fx, kind) })],
    outsider: 'refused',
    member: 204,
  },
  [`POST ${files}/${kind}/:id`]: {
    calls: [
      (fx) => {
        const body = multipart([{ name: 'file', filename: `n${newObjectId()}.txt`, data: 'x' }]);
        return { method: 'POST', url: `${files}/${kind}/${kind === 'cruises' ? fx.cruise : fx.lowering}`, raw: body };
      },
    ],
    outsider: 'refused',
    member: 201,
  },
});

const cases: Record<string, Case> = {
  [`GET ${api}/events`]: {
    calls: [
      get(`/events?${diveRange}`),
      get(`/events?${diveRange}&format=csv`),
      get('/events?value=SECRETDIVE'),
      get('/events?fulltext=SECRETDIVE'),
      get('/events?fulltext=SECRETDIVE&limit=5000'),
      get('/events?fulltext=SECRETDIVE&limit=10'),
      get('/events?author=admin&limit=10&sort=newest'),
      get(`/events?sort=newest&limit=5`),
    ],
    outsider: 'filtered',
  },
  [`GET ${api}/events/count`]: {
    calls: [
      get(`/events/count?${diveRange}`),
      get('/events/count?fulltext=SECRETDIVE'),
      get('/events/count'),
      get('/events/count?value=!ASNAP'),
    ],
    outsider: 'filtered',
    count: true,
  },
  [`GET ${api}/events/bycruise/:id`]: { calls: [(fx) => get(`/events/bycruise/${fx.cruise}`)()], outsider: 'refused' },
  [`GET ${api}/events/bycruise/:id/count`]: {
    calls: [(fx) => get(`/events/bycruise/${fx.cruise}/count`)()],
    outsider: 'refused',
    count: true,
  },
  [`GET ${api}/events/bylowering/:id`]: {
    calls: [(fx) => get(`/events/bylowering/${fx.lowering}`)()],
    outsider: 'refused',
  },
  [`GET ${api}/events/bylowering/:id/count`]: {
    calls: [(fx) => get(`/events/bylowering/${fx.lowering}/count`)()],
    outsider: 'refused',
    count: true,
  },
  [`GET ${api}/events/:id`]: {
    calls: [
      (fx) => get(`/events/${fx.secretEvent}`)(),
      (fx) => get(`/events/${fx.secretEvent}?format=csv`)(),
      (fx) => get(`/events/${fx.secretEvent}?aux_data=true`)(),
    ],
    outsider: 404,
    member: 200,
  },
  // An event's video and its frame grab follow the event (docs/video.md#access).
  [`GET ${api}/events/:id/video`]: {
    calls: [(fx) => get(`/events/${fx.secretEvent}/video`)()],
    outsider: 404,
    member: 200,
  },
  [`POST ${api}/events/:id/framegrab`]: {
    calls: [(fx) => ({ method: 'POST', url: `/events/${fx.secretEvent}/framegrab` })],
    outsider: 404,
    member: 200,
  },
  [`POST ${api}/events`]: {
    calls: [() => ({ method: 'POST', url: '/events', body: { event_value: 'NEWDIVE', ts: secretTs } })],
    outsider: 403,
    member: 201,
  },
  [`PATCH ${api}/events/:id`]: {
    calls: [
      (fx) => ({ method: 'PATCH', url: `/events/${fx.secretEvent}`, body: { event_free_text: 'SECRETDIVE edited' } }),
      // Moving a visible event into the dive is refused too.
      async (fx, who) => ({
        method: 'PATCH',
        url: `/events/${who === 'outsider' ? fx.openEvent : await fx.diveEvent()}`,
        body: { ts: secretTs },
      }),
    ],
    outsider: 'refused',
    member: 204,
  },
  [`DELETE ${api}/events/all`]: {
    calls: [() => ({ method: 'DELETE', url: '/events/all' })],
    outsider: 403,
    adminOnly: { admin: null },
  },
  [`DELETE ${api}/events`]: {
    calls: [async (fx) => ({ method: 'DELETE', url: `/events?value=${await fx.diveEvent()}` })],
    outsider: 403,
    adminOnly: { admin: 200 },
  },
  [`DELETE ${api}/events/:id`]: {
    calls: [async (fx) => ({ method: 'DELETE', url: `/events/${await fx.diveEvent()}` })],
    outsider: 404,
    member: 204,
  },
  [`GET ${api}/event_aux_data`]: {
    calls: [
      get(`/event_aux_data?${diveRange}`),
      (fx) => get(`/event_aux_data?eventID=${fx.secretEvent}`)(),
      get('/event_aux_data?datasource=framegrabber'),
      get('/event_aux_data?fulltext=secret_grab'),
      get('/event_aux_data'),
    ],
    outsider: 'filtered',
  },
  [`GET ${api}/event_aux_data/bycruise/:id`]: {
    calls: [(fx) => get(`/event_aux_data/bycruise/${fx.cruise}`)()],
    outsider: 'refused',
  },
  [`GET ${api}/event_aux_data/bylowering/:id`]: {
    calls: [(fx) => get(`/event_aux_data/bylowering/${fx.lowering}`)()],
    outsider: 'refused',
  },
  [`GET ${api}/event_aux_data/:id`]: {
    calls: [(fx) => get(`/event_aux_data/${fx.secretAux[0]}`)()],
    outsider: 404,
    member: 200,
  },
  [`POST ${api}/event_aux_data`]: {
    calls: [
      (fx) => ({
        method: 'POST',
        url: '/event_aux_data',
        body: { event_id: fx.secretEvent, data_source: `src${newObjectId()}`, data_array: [] },
      }),
      // Taking over a dive record by its id from a visible event.
      (fx, who) => ({
        method: 'POST',
        url: '/event_aux_data',
        body: {
          id: who === 'outsider' ? fx.secretAux[1] : newObjectId(),
          event_id: who === 'outsider' ? fx.openEvent : fx.secretEvent,
          data_source: `grabs${newObjectId()}`,
          data_array: [{ data_name: 'filename', data_value: '/images/secret_grab.png' }],
        },
      }),
    ],
    outsider: 400,
    member: 201,
  },
  [`PATCH ${api}/event_aux_data/:id`]: {
    calls: [
      (fx) => ({
        method: 'PATCH',
        url: `/event_aux_data/${fx.secretAux[0]}`,
        body: { data_array: [{ data_name: 'note', data_value: 'SECRETDIVE' }] },
      }),
    ],
    outsider: 404,
    member: 204,
  },
  [`DELETE ${api}/event_aux_data/:id`]: {
    calls: [
      async (fx) => {
        const [id] = await insertAux(fx.t.ctx.database.db, [navData(await fx.diveEvent(), 3)]);
        return { method: 'DELETE', url: `/event_aux_data/${id}` };
      },
    ],
    outsider: 404,
    member: 204,
  },
  [`GET ${api}/event_exports`]: {
    calls: [
      get(`/event_exports?${diveRange}`),
      get(`/event_exports?${diveRange}&format=csv`),
      get(`/event_exports?${diveRange}&limit=5000`),
      get('/event_exports?format=csv&add_record_ids=true'),
      get(`/event_exports?${diveRange}&use_renav=true`),
      get(`/event_exports?${diveRange}&format=csv&use_renav=true`),
      get('/event_exports?fulltext=SECRETDIVE'),
    ],
    outsider: 'filtered',
  },
  [`GET ${api}/event_exports/bycruise/:id`]: {
    calls: [(fx) => get(`/event_exports/bycruise/${fx.cruise}`)()],
    outsider: 'refused',
  },
  [`GET ${api}/event_exports/bylowering/:id`]: {
    calls: [(fx) => get(`/event_exports/bylowering/${fx.lowering}`)()],
    outsider: 'refused',
  },
  [`GET ${api}/event_exports/:id`]: {
    calls: [
      (fx) => get(`/event_exports/${fx.secretEvent}`)(),
      (fx) => get(`/event_exports/${fx.secretEvent}?format=csv`)(),
    ],
    outsider: 404,
    member: 200,
  },
  [`GET ${api}/tracks/bylowering/:id`]: {
    calls: [(fx) => get(`/tracks/bylowering/${fx.lowering}`)()],
    outsider: 'refused',
  },
  [`GET ${api}/gis_exports/bycruise/:id`]: {
    calls: [
      (fx) => get(`/gis_exports/bycruise/${fx.cruise}`)(),
      (fx) => get(`/gis_exports/bycruise/${fx.cruise}?format=kml`)(),
    ],
    outsider: 'refused',
  },
  [`GET ${api}/gis_exports/bylowering/:id`]: {
    calls: [(fx) => get(`/gis_exports/bylowering/${fx.lowering}`)()],
    outsider: 'refused',
  },
  // Publication (docs/publication.md): the archive, its report and the event lists read like the exports.
  // Their bodies need not name the dive's markers (a zip; a report of counts): refusal is what is checked.
  ...Object.fromEntries(
    (['cruise', 'lowering'] as const).flatMap((kind) =>
      (['dwca', 'dwca_report'] as const).map((route): [string, Case] => [
        `GET ${api}/publication/${route}/by${kind}/:id`,
        { calls: [(fx) => get(`/publication/${route}/by${kind}/${fx[kind]}`)()], outsider: 'refused', binary: true },
      ]),
    ),
  ),
  [`GET ${api}/publication/event_list/bycruise/:id`]: {
    calls: [
      (fx) => get(`/publication/event_list/bycruise/${fx.cruise}`)(),
      (fx) => get(`/publication/event_list/bycruise/${fx.cruise}?format=pangaea`)(),
    ],
    outsider: 'refused',
    binary: true,
  },
  ...recordFileCases('cruises'),
  ...recordFileCases('lowerings'),
  [`POST ${files}/images/filepond/process/:id`]: {
    calls: [
      async (fx) => ({
        method: 'POST',
        url: `${files}/images/filepond/process/${await fx.diveEvent()}`,
        raw: multipart([{ name: 'filepond', filename: 'p.png', contentType: 'image/png', data: tinyPng }]),
      }),
    ],
    outsider: 404,
    member: 201,
    binary: true,
  },
  [`DELETE ${files}/images/filepond/revert`]: {
    calls: [
      async (fx) => ({
        method: 'DELETE',
        url: `${files}/images/filepond/revert`,
        raw: { payload: await attachment(fx), headers: { 'content-type': 'text/plain' } },
      }),
    ],
    outsider: 404,
    member: 204,
  },
  [`DELETE ${files}/images/*`]: {
    calls: [async (fx) => ({ method: 'DELETE', url: `${files}/images/${await attachment(fx)}` })],
    outsider: 404,
    member: 204,
  },
  [`GET ${files}/images/*`]: {
    calls: [
      get(`${files}/images/secret_grab.png`),
      get(`${files}/images/secret_grab.png?w=160`),
      async (fx) => ({ method: 'GET', url: `${files}/images/${await attachment(fx)}` }),
    ],
    outsider: 404,
    member: 200,
    binary: true,
  },
};

/** `METHOD url` of a family route. */
function familyRoutes(t: TestApp): string[] {
  return t.routes
    .filter((r) => r.method !== 'HEAD' && families.some((f) => f.test(r.url)))
    .map((r) => `${r.method} ${r.url}`);
}

async function send(fx: Fixture, call: Call, token: string | null) {
  const url = call.url.startsWith('/sealog-server') ? call.url : `${api}${call.url}`;
  const auth = token ? { authorization: `Bearer ${token}` } : {};
  return fx.t.app.inject({
    method: call.method,
    url,
    headers: { ...auth, ...(call.raw?.headers ?? {}) },
    ...(call.raw ? { payload: call.raw.payload } : call.body !== undefined ? { payload: call.body as object } : {}),
  });
}

describe.each(engines)('event access with access control on (%s)', (engine) => {
  let fx: Fixture;

  beforeAll(async () => {
    const t = await createTestApp(engine, { useAccessControl: true });
    const admin = await t.login('admin', 'demo');
    // Both may read and write events, attach pictures and edit cruise and lowering files.
    const roles = ['event_manager', 'cruise_manager'];
    const member = await createUser(t, admin, 'member', roles);
    const outsider = await createUser(t, admin, 'outsider', roles);
    const cruise = await createCruise(t, admin, { cruise_hidden: true });
    const lowering = await createLowering(t, admin, { lowering_hidden: true });
    const perms = await t.api('PATCH', `/cruises/${cruise}/permissions`, { token: admin, body: { add: [member.id] } });
    expect(perms.statusCode).toBe(204);
    const db = t.ctx.database.db;
    const [secretEvent, openEvent] = await insertEvents(db, [
      { ts: Date.parse(secretTs), event_value: 'SECRETDIVE', event_author: 'admin' },
      { ts: Date.parse('2022-06-01T00:00:00.000Z'), event_value: 'OPENEVENT', event_author: 'admin' },
    ]);
    const secretAux = await insertAux(db, [
      navData(secretEvent!, 1),
      {
        event_id: secretEvent!,
        data_source: 'framegrabber',
        data_array: [
          { data_name: 'camera_name', data_value: 'Main Camera' },
          { data_name: 'filename', data_value: '/mnt/grabs/secret_grab.png' },
        ],
      },
    ]);
    await insertAux(db, [navData(openEvent!, 2)]);
    // A recording of the restricted dive: its video links are the dive's too.
    const recording = newObjectId();
    await db
      .insertInto('recordings')
      .values({
        id: recording,
        lowering_id: lowering,
        camera: 'cam1',
        start_ts: Date.parse(secretTs) - 1000,
        duration_ms: 60_000,
        created_at: Date.now(),
      })
      .execute();
    mkdirSync(t.ctx.paths.images, { recursive: true });
    writeFileSync(path.join(t.ctx.paths.images, 'secret_grab.png'), tinyPng);
    let n = 0;
    fx = {
      t,
      tokens: { admin, member: member.token, outsider: outsider.token },
      cruise,
      lowering,
      secretEvent: secretEvent!,
      secretAux,
      openEvent: openEvent!,
      markers: [secretEvent!, ...secretAux, 'SECRETDIVE', 'secret_grab', recording],
      async diveEvent() {
        const [id] = await insertEvents(db, [
          { ts: Date.parse(secretTs) + ++n, event_value: `DIVE${n}`, event_author: 'admin' },
        ]);
        return id!;
      },
      async admin<T>(call: Call) {
        const res = await send(fx, call, admin);
        return (res.body ? res.json() : {}) as T;
      },
    };
  });
  afterAll(() => fx?.t.close());

  it('every event, aux-data, export, GIS, track and file route declares its access and has a case here', () => {
    const undeclared = fx.t.routes
      .filter((r) => r.method !== 'HEAD' && families.some((f) => f.test(r.url)))
      .filter((r) => r.config.access === undefined)
      .map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
    expect(familyRoutes(fx.t).filter((r) => !(r in cases))).toEqual([]);
    expect(Object.keys(cases).filter((c) => !familyRoutes(fx.t).includes(c))).toEqual([]);
  });

  it.each(Object.keys(cases))(
    '%s: the outsider gets nothing of the restricted dive; the member and admins get it',
    async (route) => {
      const c = cases[route]!;
      // A marker the caller sent (an id in the path, echoed in a not-found message) is not a leak.
      const leaks = (body: string, call: Call) => {
        const sent = call.url + JSON.stringify(call.body ?? '') + String(call.raw?.payload ?? '');
        return fx.markers.filter((m) => body.includes(m) && !sent.includes(m));
      };
      const counted = (body: string) => (JSON.parse(body) as { events: number }).events;
      for (const build of c.calls) {
        let outsiderCount = 0;
        const outsiderCall = await build(fx, 'outsider');
        const res = await send(fx, outsiderCall, fx.tokens.outsider);
        const where = `${outsiderCall.method} ${outsiderCall.url} as outsider: ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, where).toBeLessThan(500);
        if (c.outsider === 'filtered') expect([200, 404], where).toContain(res.statusCode);
        else if (c.outsider === 'refused') expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
        else expect(res.statusCode, where).toBe(c.outsider);
        expect(leaks(res.body, outsiderCall), where).toEqual([]);
        if (c.count && res.statusCode === 200) outsiderCount = counted(res.body);

        const allowed: Array<[Who, number | null]> = c.adminOnly
          ? [
              ['member', 403],
              ['admin', c.adminOnly.admin],
            ]
          : [
              ['member', c.member ?? 200],
              ['admin', c.member ?? 200],
            ];
        for (const [who, status] of allowed) {
          if (status === null) continue;
          const call = await build(fx, who);
          const ok = await send(fx, call, fx.tokens[who]);
          const at = `${call.method} ${call.url} as ${who}: ${ok.statusCode} ${ok.body.slice(0, 300)}`;
          expect(ok.statusCode, at).toBe(status);
          // Reads show the dive to those who may open it.
          if (c.count) expect(counted(ok.body), at).toBeGreaterThan(outsiderCount);
          else if (call.method === 'GET' && !c.binary && status === 200)
            expect(
              fx.markers.some((m) => ok.body.includes(m) && !call.url.includes(m)),
              at,
            ).toBe(true);
        }
      }
    },
  );

  it('HEAD of an image follows its GET', async () => {
    const url = `${files}/images/secret_grab.png`;
    const head = (token: string) =>
      fx.t.app.inject({ method: 'HEAD', url, headers: { authorization: `Bearer ${token}` } });
    expect((await head(fx.tokens.outsider)).statusCode).toBe(404);
    expect((await head(fx.tokens.member)).statusCode).toBe(200);
  });

  it('an event is seen only by those who may open every record holding it: an open lowering in a restricted cruise hides it', async () => {
    const t = fx.t;
    const cruise = await createCruise(t, fx.tokens.admin, {
      cruise_id: 'C2024',
      start_ts: '2024-01-01T00:00:00.000Z',
      stop_ts: '2024-01-31T00:00:00.000Z',
    });
    const perms = await t.api('PATCH', `/cruises/${cruise}/permissions`, {
      token: fx.tokens.admin,
      body: { add: [(await t.api('GET', '/auth/profile', { token: fx.tokens.member })).json().id as string] },
    });
    expect(perms.statusCode).toBe(204);
    // Created after the cruise's list was set, so its own list stays empty: anyone may open it.
    const lowering = await createLowering(t, fx.tokens.admin, {
      lowering_id: 'L2024',
      start_ts: '2024-01-10T00:00:00.000Z',
      stop_ts: '2024-01-11T00:00:00.000Z',
    });
    const [id] = await insertEvents(t.ctx.database.db, [
      { ts: '2024-01-10T12:00:00.000Z', event_value: 'INNER', event_author: 'admin' },
    ]);
    expect((await send(fx, get(`/lowerings/${lowering}`)(), fx.tokens.outsider)).statusCode).toBe(200);
    const byLowering = await send(fx, get(`/events/bylowering/${lowering}`)(), fx.tokens.outsider);
    expect([200, 404]).toContain(byLowering.statusCode);
    expect(byLowering.body).not.toContain(id);
    expect((await send(fx, get(`/events/${id}`)(), fx.tokens.outsider)).statusCode).toBe(404);
    expect((await send(fx, get(`/events/${id}`)(), fx.tokens.member)).statusCode).toBe(200);
  });

  it('events outside every restricted record stay visible to the outsider', async () => {
    const res = await send(fx, get('/events?value=OPENEVENT')(), fx.tokens.outsider);
    expect(res.statusCode).toBe(200);
    expect((res.json() as Array<{ id: string }>).map((e) => e.id)).toEqual([fx.openEvent]);
    const one = await send(fx, get(`/event_exports/${fx.openEvent}`)(), fx.tokens.outsider);
    expect(one.statusCode).toBe(200);
    // Counts agree with the lists on every count path (the per-day totals less the hidden windows too).
    for (const query of ['', '?value=!ASNAP', `?${diveRange}`, '?startTS=2022-01-01T00:00:00.000Z']) {
      const list = await send(fx, get(`/events${query}`)(), fx.tokens.outsider);
      const listed = list.statusCode === 200 ? (list.json() as unknown[]).length : 0;
      const count = await send(fx, get(`/events/count${query}`)(), fx.tokens.outsider);
      expect((count.json() as { events: number }).events, query).toBe(listed);
    }
  });

  it('an image needs a token (header, cookie or ?token=) while access control is on', async () => {
    const url = `${files}/images/secret_grab.png`;
    expect((await fx.t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const byQuery = await fx.t.app.inject({ method: 'GET', url: `${url}?token=${fx.tokens.member}` });
    expect(byQuery.statusCode).toBe(200);
    const byCookie = await fx.t.app.inject({ method: 'GET', url, headers: { cookie: `token=${fx.tokens.member}` } });
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.rawPayload.equals(tinyPng)).toBe(true);
  });
});

describe.each(engines)('event access with access control off (%s)', (engine) => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('restricted and hidden records change nothing about events and images', async () => {
    t = await createTestApp(engine);
    const admin = await t.login('admin', 'demo');
    const other = await createUser(t, admin, 'other', ['event_manager']);
    const member = await createUser(t, admin, 'member', ['event_manager']);
    const cruise = await createCruise(t, admin, { cruise_hidden: true });
    await createLowering(t, admin, { lowering_hidden: true });
    await t.api('PATCH', `/cruises/${cruise}/permissions`, { token: admin, body: { add: [member.id] } });
    const [id] = await insertEvents(t.ctx.database.db, [
      { ts: Date.parse(secretTs), event_value: 'SECRETDIVE', event_author: 'admin' },
    ]);
    await insertAux(t.ctx.database.db, [
      { event_id: id!, data_source: 'framegrabber', data_array: [{ data_name: 'filename', data_value: 'g.png' }] },
    ]);
    mkdirSync(t.ctx.paths.images, { recursive: true });
    writeFileSync(path.join(t.ctx.paths.images, 'g.png'), tinyPng);
    expect((await t.api('GET', `/events/${id}`, { token: other.token })).statusCode).toBe(200);
    expect((await t.api('GET', `/events?${diveRange}`, { token: other.token })).json()).toHaveLength(1);
    const post = await t.api('POST', '/events', { token: other.token, body: { event_value: 'X', ts: secretTs } });
    expect(post.statusCode).toBe(201);
    // Images stay public for stock clients.
    expect((await t.app.inject({ method: 'GET', url: `${files}/images/g.png` })).statusCode).toBe(200);
  });
});
