import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsPath } from '@bathylog/shared';
import { createCruise, createLowering, multipart } from './api-fixtures.js';
import { insertAux, insertEvents, navData } from './table-fixtures.js';
import { createTestApp, engines, type TestApp } from './test-app.js';
import { listenInRange, RawClient, scriptHello } from '../src/realtime/testing/ws-test-client.js';

/**
 * The public archive as every caller who reads it: the anonymous visitor (no token, no cookie), the
 * guest, a self-registered user and a device key. The public dive is browsable, the embargoed one
 * is a stub, and nothing of an embargoed, private or hidden-cruise record is reachable through any
 * route of the server's own route table or any websocket channel, until the fake clock passes its
 * embargo date; then it opens by itself. A user on the records' access lists, a role the
 * deployment grants and the admin read all of it. With the archive off, anonymous callers are
 * refused as before.
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

/** The callers who read the archive; `anonymous` sends no token. */
const archiveReaders = ['anonymous', 'guest', 'registered', 'deviceKey'] as const;
type ArchiveReader = (typeof archiveReaders)[number];

interface Fixture {
  t: TestApp;
  admin: string;
  /** Tokens of the signed-in archive readers, of a user on every access list, of a granted role. */
  tokens: Record<Exclude<ArchiveReader, 'anonymous'>, string> & { member: string; manager: string };
  /** The hidden cruise and the dive made inside it after it was hidden; the private cruise and dive. */
  closed: { cruise: string; lowering: string; privateCruise: string; privateDive: string };
  /** The events of the private cruise, the private dive and the hidden cruise's dive. */
  closedEvents: string[];
  now: { value: number };
  pub: { cruise: string; lowering: string; event: string };
  emb: { cruise: string; lowering: string; event: string; aux: string[]; files: string[] };
  /** Strings only the embargoed (or private) records' data holds. */
  markers: string[];
}

function anonymous(t: TestApp, method: string, url: string, payload?: unknown, token?: string) {
  return t.app.inject({
    method: method as 'GET',
    url,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

async function ok<T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, what: string): Promise<T> {
  const r = await res;
  if (r.statusCode >= 300) throw new Error(`${what}: ${r.statusCode} ${r.body}`);
  return (r.body ? r.json() : undefined) as T;
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
  const t = await createTestApp(
    engine,
    { publicArchive: true, useAccessControl, archiveReaderRoles: ['cruise_manager'] },
    undefined,
    () => now.value,
  );
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
  const privateCruise = await createCruise(t, admin, {
    cruise_id: 'PRIV2022',
    start_ts: '2022-01-01T00:00:00.000Z',
    stop_ts: '2022-01-31T00:00:00.000Z',
  });
  const privateDive = await createLowering(t, admin, {
    lowering_id: 'S0493',
    start_ts: '2023-03-20T00:00:00.000Z',
    stop_ts: '2023-03-21T00:00:00.000Z',
    lowering_public: false,
  });
  // A public cruise hidden by an admin, and a dive made inside it afterwards (it inherits).
  const hiddenCruise = await createCruise(t, admin, {
    cruise_id: 'HID2025',
    start_ts: '2025-01-01T00:00:00.000Z',
    stop_ts: '2025-01-31T00:00:00.000Z',
    cruise_public: true,
  });
  await ok(t.api('PATCH', `/cruises/${hiddenCruise}`, { token: admin, body: { cruise_hidden: true } }), 'hide');
  const hiddenDive = await createLowering(t, admin, {
    lowering_id: 'S0700',
    start_ts: '2025-01-10T00:00:00.000Z',
    stop_ts: '2025-01-11T00:00:00.000Z',
    lowering_location: 'SECRETPLACE',
  });

  const user = async (username: string, roles: string[]) => {
    const made = await ok<{ insertedId: string }>(
      t.api('POST', '/users', {
        token: admin,
        body: { username, fullname: username, email: `${username}@example.org`, password: 'secret-pw', roles },
      }),
      username,
    );
    return { id: made.insertedId, token: await t.login(username, 'secret-pw') };
  };
  await ok(
    t.api('POST', '/auth/register', {
      body: { username: 'selfmade', fullname: 'Self Made', email: 'selfmade@example.org', password: 'secret-pw' },
    }),
    'register',
  );
  const key = await ok<{ key: string }>(
    t.api('POST', '/device_keys', { token: admin, body: { name: 'bridge-bot', roles: ['event_logger'] } }),
    'device key',
  );
  const member = await user('member', ['event_watcher']);
  const tokens = {
    guest: await t.login('guest', ''),
    registered: await t.login('selfmade', 'secret-pw'),
    deviceKey: key.key,
    member: member.token,
    manager: (await user('manager', ['cruise_manager'])).token,
  };
  if (useAccessControl) {
    // The member is on every closed record's access list (a lowering that inherits, through its cruise's).
    for (const [kind, id] of [
      ['cruises', embCruise],
      ['cruises', privateCruise],
      ['cruises', hiddenCruise],
      ['lowerings', privateDive],
    ] as const) {
      await ok(t.api('PATCH', `/${kind}/${id}/permissions`, { token: admin, body: { add: [member.id] } }), kind);
    }
  }
  const db = t.ctx.database.db;
  const [openEvent, secretEvent, privateEvent, diveOfPrivate, looseEvent, hiddenEvent] = await insertEvents(db, [
    { ts: Date.parse('2023-03-15T00:00:00.000Z'), event_value: 'OPENDIVE', event_author: 'admin' },
    { ts: Date.parse('2024-01-10T12:00:00.000Z'), event_value: 'SECRETDIVE', event_author: 'admin' },
    { ts: Date.parse('2022-01-10T12:00:00.000Z'), event_value: 'SECRETPRIVATE', event_author: 'admin' },
    { ts: Date.parse('2023-03-20T12:00:00.000Z'), event_value: 'SECRETPRIVATEDIVE', event_author: 'admin' },
    { ts: Date.parse('2021-06-01T00:00:00.000Z'), event_value: 'SECRETLOOSE', event_author: 'admin' },
    { ts: Date.parse('2025-01-10T12:00:00.000Z'), event_value: 'SECRETHIDDENDIVE', event_author: 'admin' },
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
    navData(hiddenEvent!, 3),
    {
      event_id: hiddenEvent!,
      data_source: 'framegrabber',
      data_array: [{ data_name: 'filename', data_value: '/grabs/hidden_grab.png' }],
    },
  ]);
  mkdirSync(t.ctx.paths.images, { recursive: true });
  for (const name of ['open_grab.png', 'secret_grab.png', 'hidden_grab.png']) {
    writeFileSync(path.join(t.ctx.paths.images, name), tinyPng);
  }
  const embFiles = [
    await upload(t, admin, 'cruises', embCruise, 'cruise-notes.txt'),
    await upload(t, admin, 'lowerings', embLowering, 'dive-notes.txt'),
  ];
  return {
    t,
    admin,
    tokens,
    closed: { cruise: hiddenCruise, lowering: hiddenDive, privateCruise, privateDive },
    closedEvents: [privateEvent!, diveOfPrivate!, hiddenEvent!],
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
      'SECRETHIDDENDIVE',
      'hidden_grab',
      hiddenDive,
      secretEvent!,
      hiddenEvent!,
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
      `${base}hidden_grab.png`,
      `${base}${fx.emb.cruise}`,
    ];
  }
  if (!url.includes(':')) return [url];
  const ids = [fx.emb.cruise, fx.emb.lowering, fx.emb.event, ...fx.emb.aux, ...Object.values(fx.closed)];
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
  '?value=SECRETHIDDENDIVE',
  '?lowering_id=S0700',
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

    it.each(archiveReaders)(
      'as %s, reaches nothing of the embargoed, private or hidden-cruise data through any route of the route table',
      async (reader) => {
        const token = reader === 'anonymous' ? undefined : fx.tokens[reader];
        const routes = fx.t.routes.filter(
          (r) =>
            r.url.startsWith('/sealog-server') &&
            // Would end the reader's session and turn the rest of the sweep into 401s.
            !(token && r.url.endsWith('/auth/signOutEverywhere')),
        );
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
              const res = await anonymous(fx.t, route.method, url, isWrite ? {} : undefined, token);
              const where = `${route.method} ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`;
              expect(res.statusCode, where).toBeLessThan(500);
              const found = fx.markers.filter((m) => res.body.includes(m) && !url.includes(m));
              if (found.length > 0) leaks.push(`${where} → ${found.join(', ')}`);
              // Every authenticated write refuses the anonymous visitor before doing anything; no
              // write of a signed-in reader succeeds on a record or event it may not read.
              if (isWrite && !token && route.config.auth === true && res.statusCode !== 401) writes.push(where);
              if (isWrite && token && base !== route.url && res.statusCode < 300) writes.push(where);
            }
          }
        }
        expect(leaks).toEqual([]);
        expect(writes).toEqual([]);
        // An image answers bytes no marker is found in: its status says it.
        for (const name of ['secret_grab.png', 'hidden_grab.png', 'hidden_grab.png?w=160']) {
          const image = await anonymous(fx.t, 'GET', `${files}/images/${name}`, undefined, token);
          expect(image.statusCode, name).toBe(404);
        }
        // The sweep was made as the reader all along.
        if (token) expect((await fx.t.api('GET', '/cruises', { token })).statusCode).toBe(200);
        // The closed data is all still there for the admin.
        const all = await fx.t.api('GET', '/events', { token: fx.admin });
        for (const value of ['SECRETDIVE', 'SECRETPRIVATE', 'SECRETHIDDENDIVE']) expect(all.body).toContain(value);
        // The route table says which routes admit the visitor; none of them writes.
        const admitting = routes.filter((r) => r.config.archive);
        expect(admitting.length).toBeGreaterThan(20);
        expect(admitting.filter((r) => !['GET', 'HEAD'].includes(r.method))).toEqual([]);
      },
      300_000,
    );

    it('as guest, registered user and device key, no channel delivers a closed record or event', async () => {
      const port = await listenInRange(fx.t.app);
      const channels = ['updateEvents', 'updateCruises', 'updateLowerings', 'checklists'] as const;
      const open = async (token: string) => {
        const c = await RawClient.open(port);
        const reply = await c.call(
          scriptHello(
            token,
            channels.map((ch) => wsPath(ch)),
          ),
        );
        expect(reply.type, JSON.stringify(reply)).toBe('hello');
        return c;
      };
      // The route sweep may have signed the users out everywhere: fresh sessions.
      const login = (name: string) => fx.t.login(name, name === 'guest' ? '' : 'secret-pw');
      const readers = await Promise.all([await login('guest'), await login('selfmade'), fx.tokens.deviceKey].map(open));
      const seerTokens = [fx.admin];
      if (useAccessControl) seerTokens.push(await login('member'));
      else seerTokens.push(await login('manager'));
      const seers = await Promise.all(seerTokens.map(open));
      try {
        const firstForSeers = seers.map((c) => c.nextPub(wsPath('updateEvents'), 10_000));
        const patch = (id: string, text: string) =>
          ok(fx.t.api('PATCH', `/events/${id}`, { token: fx.admin, body: { event_free_text: text } }), text);
        // Closed records and events first, then the public dive's, which every reader receives.
        await patch(fx.emb.event, 'SECRETLIVE');
        for (const id of fx.closedEvents) await patch(id, 'SECRETLIVE');
        await ok(fx.t.api('GET', `/lowerings/${fx.closed.lowering}/bump`, { token: fx.admin }), 'bump');
        await ok(fx.t.api('GET', `/cruises/${fx.emb.cruise}/bump`, { token: fx.admin }), 'bump');
        const lastForReaders = readers.map((c) => c.nextPub(wsPath('updateEvents'), 10_000));
        await ok(fx.t.api('GET', `/lowerings/${fx.pub.lowering}/bump`, { token: fx.admin }), 'bump');
        await patch(fx.pub.event, 'OPENLIVE');
        for (const pub of await Promise.all(lastForReaders)) expect(JSON.stringify(pub)).toContain('OPENLIVE');
        for (const c of readers) {
          const got = JSON.stringify(c.frames.filter((f) => f.type === 'pub'));
          for (const m of ['SECRETLIVE', fx.closed.lowering, fx.emb.cruise]) expect(got).not.toContain(m);
          expect(got).toContain(fx.pub.lowering);
        }
        // The admin and the member of the access lists (or the granted role) receive the closed ones.
        for (const pub of await Promise.all(firstForSeers)) expect(JSON.stringify(pub)).toContain('SECRETLIVE');
        // Each socket gets its frames in publish order, but not in step with the readers' sockets.
        for (const c of seers) {
          for (const id of [fx.closed.lowering, fx.emb.cruise]) {
            await c.next((f) => JSON.stringify(f).includes(id), 10_000);
          }
        }
      } finally {
        for (const c of [...readers, ...seers]) c.close();
      }
    });

    it('the admin, a granted role and (with access control) the access-list member read all of it', async () => {
      // With access control the granted role reads by the access lists, which do not name it.
      const seers = [fx.admin, ...(useAccessControl ? [fx.tokens.member] : [fx.tokens.manager])];
      for (const token of seers) {
        const events = await fx.t.api('GET', '/events', { token });
        for (const value of ['SECRETDIVE', 'SECRETPRIVATE', 'SECRETPRIVATEDIVE', 'SECRETHIDDENDIVE']) {
          expect(events.body, value).toContain(value);
        }
        expect((await fx.t.api('GET', `/lowerings/${fx.closed.lowering}`, { token })).statusCode).toBe(200);
        const dive = await fx.t.api('GET', `/event_exports/bylowering/${fx.closed.lowering}?format=csv`, { token });
        expect(dive.body).toContain('SECRETHIDDENDIVE');
        const cruise = (await fx.t.api('GET', `/cruises/${fx.emb.cruise}`, { token })).json() as Record<
          string,
          unknown
        >;
        expect(cruise).toMatchObject({ cruise_location: 'SECRETPLACE' });
        const image = await anonymous(fx.t, 'GET', `${files}/images/hidden_grab.png`, undefined, token);
        expect(image.statusCode).toBe(200);
        expect((await anonymous(fx.t, 'GET', fx.emb.files[1]!, undefined, token)).body).toBe('SECRETNOTES');
      }
    });

    it('a device key still logs into a dive the archive keeps closed, and does not read it back', async () => {
      // With access control the access lists decide who writes, as before (they name the member only).
      const res = await fx.t.api('POST', '/events', {
        token: fx.tokens.deviceKey,
        body: { ts: '2025-01-10T14:00:00.000Z', event_value: 'BOTLOGGED' },
      });
      expect(res.statusCode).toBe(useAccessControl ? 403 : 201);
      expect((await fx.t.api('GET', '/events?value=BOTLOGGED', { token: fx.tokens.deviceKey })).statusCode).toBe(404);
      const stored = await fx.t.api('GET', '/events?value=BOTLOGGED', { token: fx.admin });
      expect(stored.statusCode).toBe(useAccessControl ? 404 : 200);
      for (const e of stored.statusCode === 200 ? (stored.json() as Array<{ id: string }>) : []) {
        await fx.t.api('DELETE', `/events/${e.id}`, { token: fx.admin });
      }
    });

    it('only admins publish: a cruise manager may not make a record public or lift its embargo', async () => {
      const manager = await fx.t.login('manager', 'secret-pw');
      for (const [url, body] of [
        [`/cruises/${fx.pub.cruise}`, { cruise_embargo_until: new Date(embargoEnd).toISOString() }],
        [`/cruises/${fx.pub.cruise}`, { cruise_public: false }],
        [`/lowerings/${fx.pub.lowering}`, { lowering_public: true }],
      ] as const) {
        const res = await fx.t.api('PATCH', url, { token: manager, body });
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
        expect((res.json() as { message: string }).message).toMatch(/^Only admins can publish a (cruise|lowering)/);
      }
      const made = await fx.t.api('POST', '/cruises', {
        token: manager,
        body: {
          cruise_id: 'MGR1',
          start_ts: '2020-01-01T00:00:00.000Z',
          stop_ts: '2020-01-02T00:00:00.000Z',
          cruise_public: true,
        },
      });
      expect(made.statusCode).toBe(403);
      // The stored values sent back unchanged (a form's save) pass; nothing was published.
      const same = await fx.t.api('PATCH', `/cruises/${fx.pub.cruise}`, {
        token: manager,
        body: { cruise_public: true, cruise_embargo_until: null },
      });
      expect(same.statusCode).toBe(204);
      const sameDive = await fx.t.api('PATCH', `/lowerings/${fx.pub.lowering}`, {
        token: manager,
        body: { lowering_public: null },
      });
      expect(sameDive.statusCode).toBe(204);
      expect((await get(`/lowerings/${fx.pub.lowering}`)).json()).toMatchObject({ lowering_public: true });
      expect((await get(`/cruises/${fx.pub.cruise}`)).json()).toMatchObject({ cruise_embargo_until: null });
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
