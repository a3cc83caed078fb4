import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ship } from '@bathylog/shared';
import { notThisShipsRecord, storeFailed } from '../src/modules/sync/sync-apply.js';
import { engines, type TestApp } from './test-app.js';
import { startShipAndShore, waitUntil, type ShipAndShore } from './ship-and-shore.js';
import { HostileShip } from './hostile-ship.js';

/**
 * A shore following two ships (docs/security.md#a-followed-ship): an honest one (a real server)
 * and a hostile one (a small HTTP server answering the sync protocol with crafted pages). The
 * hostile ship tries to change everything that is not its own, sends a gzip bomb, overlong
 * cursors and malformed records; the shore keeps every record and file as it was, answers
 * meanwhile, and keeps following the honest ship.
 */
const sync = { pollIntervalMs: 100 };

/** The fleet's waits allow more: three servers share the machine. */
const waitFor = <T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 30_000) =>
  waitUntil(what, fn, timeoutMs);

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const fakeSha = 'ab'.repeat(32);

describe.each(engines)('a shore following an honest and a hostile ship, shore on %s', (engine) => {
  let both: ShipAndShore;
  let ship: TestApp;
  let shore: TestApp;
  let shipAdmin: string;
  let shoreAdmin: string;
  const hostile = new HostileShip();

  const ok = async (t: TestApp, token: string, method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.api(method, url, { token, ...(body !== undefined ? { body } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body ? (res.json() as { insertedId?: string; id?: string }) : {};
  };
  const ships = async () => (await shore.api('GET', '/ships', { token: shoreAdmin })).json() as Ship[];
  const shipNamed = async (name: string) => (await ships()).find((s) => s.name === name)!;
  const row = async (table: 'events' | 'cruises' | 'event_templates' | 'event_aux_data', id: string) =>
    (await shore.ctx.database.db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst()) as
      Record<string, unknown> | undefined;

  /** Everything on the shore an attack could change: the copied tables, origins and files. */
  const shoreState = async (leaveOut: readonly string[] = []) => {
    const db = shore.ctx.database.db;
    const tables = ['cruises', 'lowerings', 'events', 'event_aux_data', 'event_templates'] as const;
    const out: Record<string, unknown> = {};
    for (const table of tables) {
      const rows = (await db.selectFrom(table).selectAll().orderBy('id').execute()) as Array<Record<string, unknown>>;
      out[table] = rows
        .filter((r) => !leaveOut.includes(String(r.id)))
        .map((r) =>
          Object.fromEntries(
            Object.entries(r)
              .filter(([k]) => !['search', 'fts', 'tsv'].some((s) => k.includes(s)))
              .map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) && k !== 'id' ? Number(v) : v]),
          ),
        );
    }
    out.origins = (
      await db.selectFrom('sync_origins').selectAll().orderBy('record_type').orderBy('record_id').execute()
    ).filter((o) => !leaveOut.includes(o.record_id));
    const files: Record<string, string> = {};
    const walk = (dir: string, rel: string) => {
      if (!existsSync(dir)) return;
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.name === '.thumbnails') continue;
        if (e.isDirectory()) walk(path.join(dir, e.name), `${rel}${e.name}/`);
        else if (!leaveOut.includes(`${rel}${e.name}`)) {
          files[`${rel}${e.name}`] = sha(readFileSync(path.join(dir, e.name)));
        }
      }
    };
    walk(shore.ctx.paths.files, '');
    out.files = files;
    return out;
  };

  // The shore's own records, the honest ship's, and what the hostile one sends.
  let ownCruise: string;
  let ownEvent: string;
  let ownTemplate: string;
  let shipCruise: string;
  let shipEvent: string;
  let shipEventToKeep: string;
  let shipAux: string;
  let shipTemplate: string;
  const ownImage = Buffer.from('the shore’s own picture');
  const shipImage = Buffer.from('the honest ship’s frame grab');
  const hostileImage = Buffer.from('a frame grab the hostile ship may send: its own');

  beforeAll(async () => {
    both = await startShipAndShore({ ship: { sync }, shore: { engine, config: { sync } } });
    ({ ship, shore, shipAdmin, shoreAdmin } = both);
    await hostile.listen();

    // The shore's own: a private cruise, an event, a system template, a picture.
    ownCruise = (
      await ok(shore, shoreAdmin, 'POST', '/cruises', {
        cruise_id: 'SHORE_PRIVATE',
        start_ts: '2020-01-01T00:00:00.000Z',
        stop_ts: '2020-02-01T00:00:00.000Z',
        cruise_location: 'Harbour',
        cruise_tags: [],
        cruise_hidden: true,
        cruise_additional_meta: { cruise_name: 'Private', cruise_vessel: 'Shore', cruise_pi: 'PI' },
      })
    ).insertedId!;
    ownEvent = (await ok(shore, shoreAdmin, 'POST', '/events', { event_value: 'SHORE_OWN' })).insertedId!;
    ownTemplate = (
      await ok(shore, shoreAdmin, 'POST', '/event_templates', {
        event_name: 'SHORE_SYSTEM',
        event_value: 'SHORE_SYSTEM',
        event_free_text_required: false,
        system_template: true,
      })
    ).insertedId!;
    writeFileSync(path.join(shore.ctx.paths.images, 'shore_own.jpg'), ownImage);

    // The honest ship's, followed first.
    shipCruise = (
      await ok(ship, shipAdmin, 'POST', '/cruises', {
        cruise_id: 'HONEST1',
        start_ts: '2021-01-01T00:00:00.000Z',
        stop_ts: '2021-02-01T00:00:00.000Z',
        cruise_location: 'Pacific',
        cruise_tags: [],
        cruise_additional_meta: { cruise_name: 'Honest', cruise_vessel: 'Honest', cruise_pi: 'PI' },
      })
    ).insertedId!;
    shipEvent = (await ok(ship, shipAdmin, 'POST', '/events', { event_value: 'HONEST' })).insertedId!;
    shipEventToKeep = (await ok(ship, shipAdmin, 'POST', '/events', { event_value: 'HONEST_2' })).insertedId!;
    writeFileSync(path.join(ship.ctx.paths.images, 'grab_a.jpg'), shipImage);
    shipAux = (
      await ok(ship, shipAdmin, 'POST', '/event_aux_data', {
        event_id: shipEvent,
        data_source: 'vehicleRealtimeFramegrabberData',
        data_array: [{ data_name: 'filename', data_value: '/framegrabs/grab_a.jpg' }],
      })
    ).insertedId!;
    shipTemplate = (
      await ok(ship, shipAdmin, 'POST', '/event_templates', {
        event_name: 'HONEST_T',
        event_value: 'HONEST_T',
        event_free_text_required: false,
        system_template: true,
      })
    ).insertedId!;
    await ok(shore, shoreAdmin, 'POST', '/ships', { name: 'Honest', url: both.proxy.url, key: both.key });
    await waitFor('the honest ship copied, its frame grab too', async () => {
      const image = path.join(shore.ctx.paths.images, 'grab_a.jpg');
      return (
        (await row('event_templates', shipTemplate)) &&
        (await row('event_aux_data', shipAux)) &&
        (await row('cruises', shipCruise)) &&
        existsSync(image) &&
        sha(readFileSync(image)) === sha(shipImage)
      );
    });
  }, 120_000);

  afterAll(async () => {
    await hostile.close();
    await both?.close();
  });

  it("refuses every change of what is not the hostile ship's, and the bad records, one by one", async () => {
    const before = await shoreState();
    const own = async (table: 'events' | 'cruises' | 'event_templates' | 'event_aux_data', id: string) =>
      (await row(table, id))!;
    const hacked = 'HACKED';
    const newId = (n: number) => `${'c0ffee'}${String(n).padStart(18, '0')}`;
    const hostileEvent = newId(1);
    const hostileAux = newId(2);
    const ts = Date.parse('2022-06-01T00:00:00.000Z');
    const event = (id: string, extra: Record<string, unknown> = {}) => ({
      id,
      ts,
      event_author: 'hostile',
      event_value: 'HOSTILE_OWN',
      event_options: '[]',
      event_free_text: '',
      created_by: null,
      ...extra,
    });
    let seq = 0;
    const change = (op: 'upsert' | 'delete', type: string, id: string, record: unknown = null) => ({
      seq: `h.s${seq++}`,
      op,
      record_type: type,
      record_id: id,
      record,
    });
    const fileRecord = (p: string, bytes: string | Buffer) => ({
      path: p,
      sha256: typeof bytes === 'string' ? bytes : sha(bytes),
      size: typeof bytes === 'string' ? 10 : bytes.length,
      image: p.startsWith('images/'),
    });
    hostile.files.set(sha(hostileImage), hostileImage);

    // Each change, and whether the shore must refuse it.
    const page: Array<[boolean, Record<string, unknown>]> = [
      // A wipe on the hostile ship takes only its own events (none yet).
      [false, change('delete', 'event', '*')],
      // The shore's own records: its private cruise made public, its event, its system template.
      [
        true,
        change('upsert', 'cruise', ownCruise, {
          ...(await own('cruises', ownCruise)),
          cruise_location: hacked,
          cruise_hidden: 0,
          cruise_public: 1,
        }),
      ],
      [true, change('delete', 'event', ownEvent)],
      [true, change('upsert', 'event', ownEvent, { ...(await own('events', ownEvent)), event_value: hacked })],
      [
        true,
        change('upsert', 'event_template', ownTemplate, {
          ...(await own('event_templates', ownTemplate)),
          event_value: hacked,
        }),
      ],
      // The honest ship's records.
      [true, change('upsert', 'event', shipEvent, { ...(await own('events', shipEvent)), event_value: hacked })],
      [true, change('delete', 'event', shipEventToKeep)],
      [true, change('delete', 'cruise', shipCruise)],
      [
        true,
        change('upsert', 'event_template', shipTemplate, {
          ...(await own('event_templates', shipTemplate)),
          event_value: hacked,
        }),
      ],
      [
        true,
        change('upsert', 'event_aux_data', shipAux, {
          ...(await own('event_aux_data', shipAux)),
          data_array: JSON.stringify([{ data_name: 'filename', data_value: 'hacked.jpg' }]),
        }),
      ],
      // Aux data put on events that are not the hostile ship's.
      [
        true,
        change('upsert', 'event_aux_data', newId(3), {
          id: newId(3),
          event_id: shipEvent,
          data_source: 'hostileData',
          data_array: '[]',
        }),
      ],
      [
        true,
        change('upsert', 'event_aux_data', newId(4), {
          id: newId(4),
          event_id: ownEvent,
          data_source: 'hostileData',
          data_array: '[]',
        }),
      ],
      // Files: the honest ship's frame grab replaced or deleted, the shore's own picture, files put
      // in a cruise that is not the hostile ship's, and a path outside the files folder.
      [true, change('upsert', 'file', 'images/grab_a.jpg', fileRecord('images/grab_a.jpg', hostileImage))],
      [true, change('delete', 'file', 'images/grab_a.jpg')],
      [true, change('upsert', 'file', 'images/shore_own.jpg', fileRecord('images/shore_own.jpg', hostileImage))],
      [true, change('delete', 'file', 'images/shore_own.jpg')],
      [
        true,
        change('upsert', 'file', `cruises/${ownCruise}/evil.txt`, fileRecord(`cruises/${ownCruise}/evil.txt`, fakeSha)),
      ],
      [
        true,
        change(
          'upsert',
          'file',
          `cruises/${shipCruise}/evil.txt`,
          fileRecord(`cruises/${shipCruise}/evil.txt`, fakeSha),
        ),
      ],
      [true, change('upsert', 'file', '../../etc/passwd', fileRecord('../../etc/passwd', fakeSha))],
      // What the hostile ship may do: create its own records and files.
      [false, change('upsert', 'event', hostileEvent, event(hostileEvent))],
      [
        false,
        change('upsert', 'event_aux_data', hostileAux, {
          id: hostileAux,
          event_id: hostileEvent,
          data_source: 'vehicleRealtimeFramegrabberData',
          data_array: JSON.stringify([{ data_name: 'filename', data_value: 'hostile_grab.jpg' }]),
        }),
      ],
      [false, change('upsert', 'file', 'images/hostile_grab.jpg', fileRecord('images/hostile_grab.jpg', hostileImage))],
      // Malformed records: a time that is not one, aux data that is no list, values that are objects.
      [true, change('upsert', 'event', newId(5), event(newId(5), { ts: 'yesterday' }))],
      [true, change('upsert', 'event', newId(6), event(newId(6), { event_value: { x: 1 } }))],
      [true, change('upsert', 'event', newId(7), event(newId(7), { event_options: '[oops' }))],
      [true, change('upsert', 'event', newId(8), null)],
      [true, change('upsert', 'event', '../../x', event('../../x'))],
      [
        true,
        change('upsert', 'event_aux_data', newId(9), {
          id: newId(9),
          event_id: hostileEvent,
          data_source: 'objectData',
          data_array: '{"a":1}',
        }),
      ],
      [
        true,
        change('upsert', 'event_aux_data', newId(10), {
          id: newId(10),
          event_id: hostileEvent,
          data_source: 'objectData2',
          data_array: { a: 1 },
        }),
      ],
      [
        true,
        change('upsert', 'cruise', newId(12), {
          ...(await own('cruises', ownCruise)),
          id: newId(12),
          cruise_public: null,
        }),
      ],
      // Text PostgreSQL cannot hold (a NUL character): there the database refuses that one record
      // and the page goes on; SQLite stores it as the ship's own event.
      [engine === 'postgres', change('upsert', 'event', newId(13), event(newId(13), { event_free_text: 'a\u0000b' }))],
      [true, { seq: 'h.bogus', op: 'upsert', record_type: 'bogus', record_id: newId(11), record: {} }],
      [true, { nonsense: true }],
    ];
    const refusedCount = page.filter(([refused]) => refused).length;

    // Before its pages: a gzip bomb (a page of 64 MB inflated from a few kB), a page whose cursor is
    // far longer than any, and an answer that is no page at all.
    const bomb = zlib.gzipSync(
      Buffer.concat([
        Buffer.from('{"changes":[],"next":"h.bomb","more":false,"head":"h.bomb","pad":"'),
        Buffer.alloc(64 * 1024 * 1024, 0x20),
        Buffer.from('"}'),
      ]),
    );
    expect(bomb.length).toBeLessThan(200_000);
    hostile.pushOnce({ raw: bomb, encoding: 'gzip' });
    hostile.pushOnce({ page: { changes: [], next: 'h.'.padEnd(100_000, 'x'), more: false, head: 'h.0' } });
    hostile.pushOnce({ raw: Buffer.from('<html>not a page</html>'), contentType: 'text/html' });
    hostile.push(page.map(([, c]) => c));
    const lastCursor = hostile.push([
      change('upsert', 'event', hostileEvent, event(hostileEvent, { event_value: 'HOSTILE_EDITED' })),
    ]);

    const errors: string[] = [];
    const off = shore.ctx.bus.subscribe('ships', (s) => {
      if (s.name === 'Hostile' && s.last_error) errors.push(s.last_error);
    });
    await ok(shore, shoreAdmin, 'POST', '/ships', { name: 'Hostile', url: hostile.url, key: 'bl_any' });
    // A file queued for the hostile ship over the honest ship's frame grab (as a shore upgraded
    // from a release without the origin rule may hold) is dropped, never fetched.
    const hostileId = (await shipNamed('Hostile')).id;
    await shore.ctx.database.db
      .insertInto('sync_file_queue')
      .values({
        ship_id: hostileId,
        path: 'images/grab_a.jpg',
        sha256: sha(hostileImage),
        size: hostileImage.length,
        priority: 1,
        added_at: Date.now(),
      })
      .execute();
    // The shore answers while it is attacked.
    for (let i = 0; i < 5; i++) {
      const res = await shore.api('GET', '/events', { token: shoreAdmin });
      expect(res.statusCode).toBe(200);
    }
    const status = await waitFor('the hostile pages applied', async () => {
      const s = await shipNamed('Hostile');
      return s.cursor === lastCursor && s.state === 'following' ? s : null;
    });
    off();

    // The bomb and the bad pages were refused whole, their cursors never stored, with the
    // shore's own words (never the answer's).
    expect(errors).toContain('The ship answered more than was asked for');
    expect(errors).toContain('The ship answered no change page');
    const stored = await shore.ctx.database.db.selectFrom('sync_ships').select('cursor').execute();
    for (const s of stored) expect(String(s.cursor).length).toBeLessThan(200);

    // Every refused change is counted and the latest are listed, with the reason.
    expect(status.refused_changes).toBe(refusedCount);
    expect(status.refusals).toHaveLength(10);
    const honest = await shipNamed('Honest');
    expect(honest.refused_changes).toBe(0);
    expect(honest.refusals).toEqual([]);
    const refusals = (await shore.ctx.database.db.selectFrom('sync_refusals').selectAll().orderBy('id').execute()).map(
      (r) => ({ record_type: r.record_type, record_id: r.record_id, reason: r.reason }),
    );
    expect(refusals).toContainEqual({ record_type: 'cruise', record_id: ownCruise, reason: notThisShipsRecord });
    expect(refusals).toContainEqual({ record_type: 'event', record_id: shipEvent, reason: notThisShipsRecord });
    expect(refusals).toContainEqual({
      record_type: 'file',
      record_id: 'images/grab_a.jpg',
      reason: notThisShipsRecord,
    });
    expect(refusals.find((r) => r.record_id === newId(5))?.reason).toMatch(/"ts"/);
    expect(refusals.find((r) => r.record_id === newId(9))?.reason).toMatch(/data_array/);

    // The hostile ship's own event and aux record are in (and its change of its own event).
    await waitFor('the hostile frame grab', async () =>
      existsSync(path.join(shore.ctx.paths.images, 'hostile_grab.jpg')),
    );
    expect((await row('events', hostileEvent))?.event_value).toBe('HOSTILE_EDITED');
    expect(await row('event_aux_data', hostileAux)).toBeDefined();
    // Everything else is as it was.
    expect(await shoreState([hostileEvent, hostileAux, newId(13), 'images/hostile_grab.jpg'])).toEqual(before);
    if (engine === 'postgres') {
      expect(refusals).toContainEqual({ record_type: 'event', record_id: newId(13), reason: storeFailed });
    }

    // Every event reads (no malformed record reached the tables), and the shore's admin still
    // changes the shore's own records.
    const events = (await shore.api('GET', '/events', { token: shoreAdmin })).json() as Array<{ id: string }>;
    for (const e of events)
      expect((await shore.api('GET', `/events/${e.id}`, { token: shoreAdmin })).statusCode).toBe(200);
    expect((await shore.api('GET', `/event_aux_data`, { token: shoreAdmin })).statusCode).toBe(200);
    const fixed = await shore.api('PATCH', `/cruises/${ownCruise}`, {
      token: shoreAdmin,
      body: { cruise_location: 'Harbour (checked)' },
    });
    expect(fixed.statusCode).toBe(204);

    // And the honest ship is still followed.
    const live = (await ok(ship, shipAdmin, 'POST', '/events', { event_value: 'STILL_FOLLOWED' })).insertedId!;
    await waitFor('the honest ship still followed', async () => row('events', live));
  }, 120_000);

  it("keeps a deleted ship's records read-only: no other ship, and no shore user, may change them", async () => {
    const honest = await shipNamed('Honest');
    expect((await shore.api('DELETE', `/ships/${honest.id}`, { token: shoreAdmin })).statusCode).toBe(204);
    const before = await shoreState();
    const hostileBefore = await shipNamed('Hostile');
    const eventRow = (await row('events', shipEvent))!;
    const lastCursor = hostile.push([
      {
        seq: 'h.d1',
        op: 'upsert',
        record_type: 'event',
        record_id: shipEvent,
        record: { ...eventRow, event_value: 'X' },
      },
      { seq: 'h.d2', op: 'delete', record_type: 'event', record_id: shipEventToKeep, record: null },
      { seq: 'h.d3', op: 'delete', record_type: 'file', record_id: 'images/grab_a.jpg', record: null },
    ]);
    const after = await waitFor('the page applied', async () => {
      const s = await shipNamed('Hostile');
      return s.cursor === lastCursor ? s : null;
    });
    expect(after.refused_changes).toBe(hostileBefore.refused_changes + 3);
    expect(await shoreState()).toEqual(before);
    // They stay the removed ship's copies, read-only here too.
    const edit = await shore.api('PATCH', `/events/${shipEvent}`, { token: shoreAdmin, body: { event_value: 'MINE' } });
    expect(edit.statusCode).toBe(403);
    expect(await shoreState()).toEqual(before);
  }, 60_000);
});
