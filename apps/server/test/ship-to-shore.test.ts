import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shipRecordReadOnlyMessage, type Ship } from '@bathylog/shared';
import { engines, type TestApp } from './test-app.js';
import type { TcpProxy } from './tcp-proxy.js';
import { startShipAndShore, waitUntil, type ShipAndShore } from './ship-and-shore.js';
import { multipart } from './api-fixtures.js';

/**
 * Ship-to-shore replication (docs/ship-to-shore.md) between two real servers: the ship (SQLite)
 * listens behind a TCP proxy that can cut the link and counts its bytes; the shore (each engine)
 * follows it through the proxy.
 */
const sync = { pollIntervalMs: 100 };

const waitFor = waitUntil;

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A small JPEG-like file of n bytes (bytes only: the feed and the copy do not decode it). */
function imageBytes(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7) & 0xff;
  return b;
}

describe.each(engines)('ship to shore, shore on %s', (engine) => {
  let ship: TestApp;
  let shore: TestApp;
  let proxy: TcpProxy;
  let shipAdmin: string;
  let shoreAdmin: string;
  let key: string;
  let keyId: string;
  let shipId: string;

  const ok = async (t: TestApp, token: string, method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.api(method, url, { token, ...(body !== undefined ? { body } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body ? (res.json() as { insertedId?: string }) : {};
  };
  const logEvent = async (value: string, extra: Record<string, unknown> = {}) =>
    (await ok(ship, shipAdmin, 'POST', '/events', { event_value: value, event_free_text: `${value} text`, ...extra }))
      .insertedId!;
  const shoreShip = async (): Promise<Ship> =>
    ((await shore.api('GET', '/ships', { token: shoreAdmin })).json() as Ship[]).find((s) => s.id === shipId)!;

  /** Rows of a table on a server, sorted by id, numbers as numbers. */
  const rows = async (t: TestApp, table: 'events' | 'event_aux_data' | 'cruises' | 'lowerings') => {
    const all = (await t.ctx.database.db.selectFrom(table).selectAll().orderBy('id').execute()) as Array<
      Record<string, unknown>
    >;
    return all.map((r) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(r)) {
        if (['search_text', 'search', 'fts', 'tsv'].some((s) => k.includes(s))) continue;
        // When this server stored an event (the creator's delete hour) is its own bookkeeping: a
        // copy is read-only on the shore, so it keeps none.
        if (k === 'created_at') continue;
        out[k] = typeof v === 'string' && /^-?\d+$/.test(v) && k !== 'id' ? Number(v) : v;
      }
      return out;
    });
  };
  const sameEvents = async () => {
    const [a, b] = [await rows(ship, 'events'), await rows(shore, 'events')];
    return JSON.stringify(a) === JSON.stringify(b);
  };

  let both: ShipAndShore;
  beforeAll(async () => {
    both = await startShipAndShore({ ship: { sync }, shore: { engine, config: { sync } } });
    ({ ship, shore, proxy, shipAdmin, shoreAdmin, key, keyId } = both);
  }, 60_000);

  afterAll(async () => both?.close());

  afterEach(() => proxy.restore());

  it('copies what the ship already has, then events logged on the ship appear on shore live', async () => {
    const cruiseId = (
      await ok(ship, shipAdmin, 'POST', '/cruises', {
        cruise_id: 'FKt230303',
        start_ts: '2023-03-03T00:00:00.000Z',
        stop_ts: '2030-01-01T00:00:00.000Z',
        cruise_location: 'Pacific',
        cruise_tags: [],
        cruise_additional_meta: { cruise_name: 'Demo', cruise_vessel: 'Falkor (too)', cruise_pi: 'PI' },
      })
    ).insertedId!;
    const early = await logEvent('BEFORE_FOLLOWING');
    const states: string[] = [];
    const offShips = shore.ctx.bus.subscribe('ships', (s) => void states.push(s.state));
    const res = await shore.api('POST', '/ships', {
      token: shoreAdmin,
      body: { name: 'Falkor (too)', url: proxy.url, key },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json() as Ship & { key?: string };
    expect(created.key).toBeUndefined();
    expect(JSON.stringify(created)).not.toContain(key);
    shipId = created.id;

    await waitFor(
      'the snapshot on shore',
      async () =>
        await shore.ctx.database.db.selectFrom('events').select('id').where('id', '=', early).executeTakeFirst(),
    );
    const cruiseOnShore = await shore.api('GET', `/cruises/${cruiseId}`, { token: shoreAdmin });
    expect(cruiseOnShore.statusCode).toBe(200);
    expect((cruiseOnShore.json() as { origin?: { ship_name: string } }).origin?.ship_name).toBe('Falkor (too)');

    // Live: the shore's bus (its websocket) announces the ship's new event.
    const seen: string[] = [];
    const off = shore.ctx.bus.subscribe('newEvents', (e) => void seen.push(String(e.id)));
    const live = await logEvent('LIVE');
    await waitFor('the live event on the shore bus', async () => seen.includes(live), 10_000);
    off();
    const onShore = (await shore.api('GET', `/events/${live}`, { token: shoreAdmin })).json() as {
      event_value: string;
      origin?: unknown;
    };
    expect(onShore.event_value).toBe('LIVE');
    expect(onShore).toMatchObject({ origin: { ship_id: shipId, ship_name: 'Falkor (too)' } });
    // On the ship itself the record is its own.
    expect((await ship.api('GET', `/events/${live}`, { token: shipAdmin })).json()).not.toHaveProperty('origin');
    await waitFor('the ship to follow', async () => (await shoreShip()).state === 'following');
    const status = await shoreShip();
    expect(status.records.events).toBeGreaterThanOrEqual(2);
    // The admins' status channel carried the state changes.
    offShips();
    expect(states).toContain('catching_up');
    expect(states).toContain('following');
    expect(status.last_contact).not.toBeNull();

    // The ship sees its follower.
    const shipStatus = (await ship.api('GET', '/sync/status', { token: shipAdmin })).json() as {
      role: string;
      followers: Array<{ key_id: string; key_name: string; behind_records: number }>;
    };
    expect(shipStatus.role).toBe('ship');
    expect(shipStatus.followers).toEqual([expect.objectContaining({ key_id: keyId, key_name: 'shore' })]);
    // The follower confirms what it has by asking for what comes after it.
    await waitFor('the follower caught up on the ship status', async () => {
      const s = (await ship.api('GET', '/sync/status', { token: shipAdmin })).json() as typeof shipStatus;
      return s.followers[0]?.behind_records === 0;
    });
  }, 60_000);

  it("marks the copied records in the list answers the screens are built from, not the shore's own", async () => {
    const lowering = (
      await ok(ship, shipAdmin, 'POST', '/lowerings', {
        lowering_id: 'S0493',
        start_ts: '2026-01-01T00:00:00.000Z',
        stop_ts: '2029-12-31T00:00:00.000Z',
        lowering_location: 'Kane FZ',
        lowering_tags: [],
        lowering_additional_meta: { lowering_description: 'on both sides' },
      })
    ).insertedId!;
    const shipEvent = await logEvent('LISTED');
    await waitFor('the lowering and event on shore', async () => {
      const db = shore.ctx.database.db;
      const l = await db.selectFrom('lowerings').select('id').where('id', '=', lowering).executeTakeFirst();
      const e = await db.selectFrom('events').select('id').where('id', '=', shipEvent).executeTakeFirst();
      return l && e;
    });
    const own = (await ok(shore, shoreAdmin, 'POST', '/events', { event_value: 'SHORE_OWN', event_free_text: '' }))
      .insertedId!;
    const origin = { ship_id: shipId, ship_name: 'Falkor (too)' };
    type Listed = { id: string; origin?: unknown };
    const list = async (t: TestApp, token: string, url: string) => {
      const res = await t.api('GET', url, { token });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res.json() as Listed[];
    };
    const cruise = (await list(shore, shoreAdmin, '/cruises')).find((c) => c.origin)!;
    expect(cruise.origin).toEqual(origin);
    for (const url of ['/lowerings', `/lowerings/bycruise/${cruise.id}`]) {
      expect((await list(shore, shoreAdmin, url)).find((l) => l.id === lowering)?.origin, url).toEqual(origin);
    }
    for (const url of [
      '/events',
      `/events/bycruise/${cruise.id}`,
      `/events/bylowering/${lowering}`,
      '/event_exports',
      `/event_exports/bycruise/${cruise.id}`,
      '/event_exports?completeness=true',
      '/events?limit=5&sort=newest',
    ]) {
      const events = await list(shore, shoreAdmin, url);
      expect(events.find((e) => e.id === shipEvent)?.origin, url).toEqual(origin);
      // The shore's own event carries none.
      const mine = events.find((e) => e.id === own);
      if (mine) expect(mine, url).not.toHaveProperty('origin');
    }
    expect((await list(shore, shoreAdmin, '/events')).find((e) => e.id === own)).toBeDefined();
    // The Event Details window reads one event with its aux data.
    expect((await shore.api('GET', `/event_exports/${shipEvent}`, { token: shoreAdmin })).json()).toMatchObject({
      origin,
    });
    expect((await shore.api('GET', `/event_exports/${own}`, { token: shoreAdmin })).json()).not.toHaveProperty(
      'origin',
    );
    // CSV stays as stock clients read it.
    const csv = await shore.api('GET', '/events?format=csv', { token: shoreAdmin });
    expect(csv.body).not.toContain('origin');
    expect(csv.body).not.toContain('Falkor (too)');
    // On the ship, which follows no ship, nothing is marked.
    for (const url of ['/cruises', '/lowerings', '/events', '/event_exports']) {
      for (const r of await list(ship, shipAdmin, url)) expect(r, url).not.toHaveProperty('origin');
    }
    // The shore's own event goes again: the tests below compare both sides' tables.
    await ok(shore, shoreAdmin, 'DELETE', `/events/${own}`);
  }, 60_000);

  it("bulk deletes on shore take only the shore's own records; a copied record's files are refused", async () => {
    const readOnly = { statusCode: 403, message: shipRecordReadOnlyMessage('Falkor (too)') };
    const copied = async (table: 'events' | 'cruises' | 'lowerings') =>
      (await shore.ctx.database.db.selectFrom(table).select('id').execute()).map((r) => r.id);
    const shipEvents = await copied('events');
    const [shipCruise] = await copied('cruises');
    const [shipLowering] = await copied('lowerings');
    expect(shipEvents.length).toBeGreaterThan(0);
    const own = async () =>
      (await ok(shore, shoreAdmin, 'POST', '/events', { event_value: 'SHORE_OWN', event_free_text: '' })).insertedId!;

    // The filtered bulk delete: the shore's own match goes, the copies stay and are counted apart.
    const mine = await own();
    const bulk = await shore.api('DELETE', '/events', { token: shoreAdmin });
    expect(bulk.statusCode).toBe(200);
    expect(bulk.json()).toEqual({ deletedCount: 1, keptFromShips: shipEvents.length });
    expect((await copied('events')).sort()).toEqual([...shipEvents].sort());
    expect((await shore.api('GET', `/events/${mine}`, { token: shoreAdmin })).statusCode).toBe(404);

    // The wipe: the same.
    await own();
    expect((await shore.api('DELETE', '/events/all', { token: shoreAdmin })).statusCode).toBe(204);
    expect((await copied('events')).sort()).toEqual([...shipEvents].sort());

    // Cruises and lowerings: the shore's own go, the ship's stay.
    await ok(shore, shoreAdmin, 'POST', '/cruises', {
      cruise_id: 'SHORE1',
      start_ts: '2020-01-01T00:00:00.000Z',
      stop_ts: '2020-02-01T00:00:00.000Z',
      cruise_location: 'Harbour',
      cruise_tags: [],
      cruise_additional_meta: { cruise_name: 'Shore', cruise_vessel: 'none', cruise_pi: 'PI' },
    });
    await ok(shore, shoreAdmin, 'POST', '/lowerings', {
      lowering_id: 'SHORE1-1',
      start_ts: '2020-01-02T00:00:00.000Z',
      stop_ts: '2020-01-03T00:00:00.000Z',
      lowering_location: 'Harbour',
      lowering_tags: [],
      lowering_additional_meta: { lowering_description: 'shore' },
    });
    expect((await shore.api('DELETE', '/lowerings/all', { token: shoreAdmin })).statusCode).toBe(204);
    expect((await shore.api('DELETE', '/cruises/all', { token: shoreAdmin })).statusCode).toBe(204);
    expect(await copied('cruises')).toEqual([shipCruise]);
    expect(await copied('lowerings')).toEqual([shipLowering]);

    // A copied record's files and pictures are the ship's: uploads and deletes are refused.
    const file = multipart([{ name: 'file', filename: 'notes.txt', contentType: 'text/plain', data: 'notes' }]);
    const picture = multipart([
      { name: 'filepond', filename: 'pic.png', contentType: 'image/png', data: imageBytes(64, 1) },
    ]);
    const files = '/sealog-server/files';
    const refused = [
      await shore.app.inject({
        method: 'POST',
        url: `${files}/cruises/${shipCruise}`,
        headers: { authorization: `Bearer ${shoreAdmin}`, ...file.headers },
        payload: file.payload,
      }),
      await shore.app.inject({
        method: 'POST',
        url: `${files}/lowerings/filepond/process/${shipLowering}`,
        headers: { authorization: `Bearer ${shoreAdmin}`, ...picture.headers },
        payload: picture.payload,
      }),
      await shore.app.inject({
        method: 'DELETE',
        url: `${files}/lowerings/${shipLowering}/notes.txt`,
        headers: { authorization: `Bearer ${shoreAdmin}` },
      }),
      await shore.app.inject({
        method: 'POST',
        url: `${files}/images/filepond/process/${shipEvents[0]}`,
        headers: { authorization: `Bearer ${shoreAdmin}`, ...picture.headers },
        payload: picture.payload,
      }),
      await shore.app.inject({
        method: 'DELETE',
        url: `${files}/images/${shipEvents[0]}_0123456789abcdef.png`,
        headers: { authorization: `Bearer ${shoreAdmin}` },
      }),
    ];
    for (const res of refused) expect({ statusCode: res.statusCode, message: res.json().message }).toEqual(readOnly);
  }, 60_000);

  it('converges exactly after the link is cut and restored: events, edits, deletes, aux data, files', async () => {
    const kept = await logEvent('KEPT');
    const edited = await logEvent('TO_EDIT');
    const deleted = await logEvent('TO_DELETE');
    await waitFor('the three events on shore', async () => sameEvents());

    proxy.cut();
    await waitFor('the shore to notice', async () => (await shoreShip()).state === 'offline', 15_000);
    const during: string[] = [];
    for (let i = 0; i < 20; i++) during.push(await logEvent(`OUTAGE_${i}`));
    await ok(ship, shipAdmin, 'PATCH', `/events/${edited}`, { event_value: 'EDITED' });
    await ok(ship, shipAdmin, 'DELETE', `/events/${deleted}`);
    // A frame grab: the image an inserter wrote, named by an aux record.
    const image = imageBytes(40_000, 1);
    writeFileSync(path.join(ship.ctx.paths.images, 'grab_0001.jpg'), image);
    await ok(ship, shipAdmin, 'POST', '/event_aux_data', {
      event_id: kept,
      data_source: 'vehicleRealtimeFramegrabberData',
      data_array: [{ data_name: 'filename', data_value: '/framegrabs/grab_0001.jpg' }],
    });
    await ok(ship, shipAdmin, 'POST', '/event_aux_data', {
      event_id: during[3]!,
      data_source: 'vehicleRealtimeNavData',
      data_array: [{ data_name: 'latitude', data_value: '12.5' }],
    });
    await new Promise((r) => setTimeout(r, 500));
    expect((await shoreShip()).state).toBe('offline');
    proxy.restore();

    await waitFor('events to converge', async () => sameEvents(), 30_000);
    await waitFor(
      'aux data to converge',
      async () =>
        JSON.stringify(await rows(ship, 'event_aux_data')) === JSON.stringify(await rows(shore, 'event_aux_data')),
    );
    const shoreImage = path.join(shore.ctx.paths.images, 'grab_0001.jpg');
    await waitFor('the frame grab on shore', async () => {
      try {
        return sha(shoreImage) === sha(path.join(ship.ctx.paths.images, 'grab_0001.jpg'));
      } catch {
        return false;
      }
    });
    const shoreEvents = await rows(shore, 'events');
    expect(shoreEvents.find((e) => e.id === edited)?.event_value).toBe('EDITED');
    expect(shoreEvents.find((e) => e.id === deleted)).toBeUndefined();
    expect(new Set(shoreEvents.map((e) => e.id)).size).toBe(shoreEvents.length);
    for (const id of during) expect(shoreEvents.some((e) => e.id === id)).toBe(true);
    await waitFor('nothing queued', async () => (await shoreShip()).queued_files === 0);
  }, 90_000);

  it('shore records refuse edits, except a comment, which arrives on the ship', async () => {
    const id = await logEvent('COMMENT_ME');
    await waitFor('the event on shore', async () => sameEvents());
    const refused = await shore.api('PATCH', `/events/${id}`, { token: shoreAdmin, body: { event_value: 'NOPE' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: shipRecordReadOnlyMessage('Falkor (too)'),
    });
    expect((await shore.api('DELETE', `/events/${id}`, { token: shoreAdmin })).statusCode).toBe(403);
    const cruise = (await rows(shore, 'cruises'))[0]!;
    const cruiseRefused = await shore.api('PATCH', `/cruises/${String(cruise.id)}`, {
      token: shoreAdmin,
      body: { cruise_location: 'Elsewhere' },
    });
    expect(cruiseRefused.statusCode).toBe(403);
    expect((await rows(shore, 'events')).find((e) => e.id === id)?.event_value).toBe('COMMENT_ME');

    const comment = await shore.api('PATCH', `/events/${id}`, {
      token: shoreAdmin,
      body: { event_options: [{ event_option_name: 'event_comment', event_option_value: 'Seen from shore' }] },
    });
    expect(comment.statusCode).toBe(204);
    const onShip = await waitFor('the comment on the ship', async () => {
      const e = (await ship.api('GET', `/events/${id}`, { token: shipAdmin })).json() as {
        event_options: Array<{ event_option_name: string; event_option_value: string }>;
      };
      return e.event_options.find((o) => o.event_option_name === 'event_comment');
    });
    expect(onShip.event_option_value).toBe('Seen from shore');
    const audit = (await ship.api('GET', `/audit?record_id=${id}`, { token: shipAdmin })).json() as {
      entries: Array<{ action: string; actor_name: string }>;
    };
    expect(audit.entries[0]).toMatchObject({ action: 'comment', actor_name: 'admin (via shore)', actor_kind: 'key' });
    // And it comes back: both sides agree.
    await waitFor('the comment back on shore, equal on both', async () => sameEvents());

    // Removing it on shore removes it on the ship too (else the ship's copy would bring it back).
    const removed = await shore.api('PATCH', `/events/${id}`, { token: shoreAdmin, body: { event_options: [] } });
    expect(removed.statusCode).toBe(204);
    await waitFor('the comment gone on the ship', async () => {
      const e = (await ship.api('GET', `/events/${id}`, { token: shipAdmin })).json() as {
        event_options: Array<{ event_option_name: string }>;
      };
      return !e.event_options.some((o) => o.event_option_name === 'event_comment');
    });
    await waitFor('no comment on either side', async () => sameEvents());
    expect(
      ((await shore.api('GET', `/events/${id}`, { token: shoreAdmin })).json() as { event_options: unknown[] })
        .event_options,
    ).toEqual([]);
  }, 60_000);

  it('refuses a wrong key, a revoked key and a non-admin user', async () => {
    const wrong = await shore.api('POST', '/ships', {
      token: shoreAdmin,
      body: { name: 'Wrong key', url: proxy.url, key: 'bl_wrongwrongwrongwrongwrongwrong' },
    });
    expect(wrong.statusCode).toBe(201);
    const wrongId = (wrong.json() as Ship).id;
    const state = await waitFor('the wrong key refused', async () => {
      const s = ((await shore.api('GET', '/ships', { token: shoreAdmin })).json() as Ship[]).find(
        (x) => x.id === wrongId,
      )!;
      return s.state === 'refused' ? s : null;
    });
    // The ship's answer is not reflected: the state and a generic reason say it all.
    expect(state.last_error).toBe('The ship refused the key');
    expect((await shore.api('DELETE', `/ships/${wrongId}`, { token: shoreAdmin })).statusCode).toBe(204);

    expect((await ship.api('GET', '/sync/changes', { headers: { authorization: 'Bearer nonsense' } })).statusCode).toBe(
      401,
    );
    const viewer = await ship.api('POST', '/users', {
      token: shipAdmin,
      body: {
        username: 'viewer',
        fullname: 'V',
        email: 'v@example.org',
        password: 'viewer-pass-1',
        roles: ['event_watcher'],
      },
    });
    expect(viewer.statusCode).toBe(201);
    const viewerToken = await ship.login('viewer', 'viewer-pass-1');
    expect((await ship.api('GET', '/sync/changes', { token: viewerToken })).statusCode).toBe(403);
    expect((await ship.api('GET', '/sync/status', { token: viewerToken })).statusCode).toBe(403);
    expect((await shore.api('GET', '/ships', { token: viewerToken })).statusCode).toBe(401);
    expect(
      (await shore.api('POST', '/ships', { token: shoreAdmin, body: { name: 'x', url: 'ftp://x', key: 'k' } }))
        .statusCode,
    ).toBe(400);
    expect(
      (await shore.api('POST', '/ships', { token: shoreAdmin, body: { name: 'x', url: 'http://x' } })).statusCode,
    ).toBe(400);

    await ok(ship, shipAdmin, 'DELETE', `/device_keys/${keyId}`);
    const revoked = await waitFor('the revoked key refused', async () => {
      const s = await shoreShip();
      return s.state === 'refused' ? s : null;
    });
    expect(revoked.last_error).toBe('The ship refused the key');
  }, 60_000);
});

describe('a caught-up shore', () => {
  it('hears of a ship change at once by waiting on the ship, not by polling; a comment cuts the wait short', async () => {
    // The shore polls only once a minute: only a request held open on the ship brings the change soon.
    const both = await startShipAndShore({ ship: { sync }, shore: { config: { sync: { pollIntervalMs: 60_000 } } } });
    const { ship, shore, proxy, shipAdmin, shoreAdmin, key } = both;
    try {
      const logEvent = async (value: string) =>
        (
          (await ship.api('POST', '/events', { token: shipAdmin, body: { event_value: value } })).json() as {
            insertedId: string;
          }
        ).insertedId;
      const onShore = (id: string) =>
        shore.ctx.database.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
      const first = await logEvent('FIRST');
      const added = await shore.api('POST', '/ships', {
        token: shoreAdmin,
        body: { name: 'Falkor (too)', url: proxy.url, key },
      });
      expect(added.statusCode).toBe(201);
      await waitFor('the first event on shore', () => onShore(first));
      // Let the shore's next request reach the ship and wait there.
      await new Promise((r) => setTimeout(r, 500));
      const live = await logEvent('LIVE');
      await waitFor('the live event on shore', () => onShore(live), 10_000);

      // A comment written on shore while the shore waits on the ship goes out at once.
      await new Promise((r) => setTimeout(r, 500));
      const comment = await shore.api('PATCH', `/events/${live}`, {
        token: shoreAdmin,
        body: { event_options: [{ event_option_name: 'event_comment', event_option_value: 'From shore' }] },
      });
      expect(comment.statusCode).toBe(204);
      await waitFor(
        'the comment on the ship',
        async () => {
          const e = (await ship.api('GET', `/events/${live}`, { token: shipAdmin })).json() as {
            event_options: Array<{ event_option_name: string; event_option_value: string }>;
          };
          return e.event_options.some((o) => o.event_option_value === 'From shore');
        },
        10_000,
      );
    } finally {
      await both.close();
    }
  }, 60_000);
});

describe('the bandwidth cap', () => {
  it('is never exceeded, measured at the proxy', async () => {
    const both = await startShipAndShore({ ship: { sync }, shore: { config: { sync } } });
    const { ship, shore, proxy, shipAdmin: admin, shoreAdmin, key } = both;
    try {
      // ~150 kB of files and events.
      for (let i = 0; i < 3; i++) {
        writeFileSync(path.join(ship.ctx.paths.images, `cap_${i}.jpg`), imageBytes(45_000, i + 10));
      }
      for (let i = 0; i < 60; i++) {
        const res = await ship.api('POST', '/events', {
          token: admin,
          body: { event_value: `CAP_${i}`, event_free_text: 'x'.repeat(200) },
        });
        expect(res.statusCode).toBe(201);
      }
      const kbps = 128; // 16,000 bytes/s
      const started = Date.now();
      const res = await shore.api('POST', '/ships', {
        token: shoreAdmin,
        body: { name: 'Capped', url: proxy.url, key, bandwidth_kbps: kbps },
      });
      expect(res.statusCode).toBe(201);
      await waitFor(
        'every file on shore',
        async () =>
          [0, 1, 2].every((i) => {
            try {
              return (
                sha(path.join(shore.ctx.paths.images, `cap_${i}.jpg`)) ===
                sha(path.join(ship.ctx.paths.images, `cap_${i}.jpg`))
              );
            } catch {
              return false;
            }
          }),
        60_000,
      ).catch(async (err: unknown) => {
        console.log(JSON.stringify((await shore.api('GET', '/ships', { token: shoreAdmin })).json()));
        throw err;
      });
      const ended = Date.now();
      const rate = (kbps * 1000) / 8;
      const total = proxy.bytesBetween(started, ended + 1);
      expect(total).toBeGreaterThan(135_000);
      // On average, and in every two-second window (a quarter second of burst allowed).
      expect(total / ((ended - started) / 1000)).toBeLessThanOrEqual(rate);
      for (let t = started; t + 2000 <= ended; t += 250) {
        expect(proxy.bytesBetween(t, t + 2000)).toBeLessThanOrEqual(rate * 2.25 + 2000);
      }
    } finally {
      await both.close();
    }
  }, 90_000);
});
