import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { createTestApp, engines, type TestApp } from '../../test/test-app.js';
import { tableCount } from '../../test/table-fixtures.js';
import {
  defaultDemoDir,
  demoFiles,
  derivedId,
  framegrabDataSource,
  isFramegrabEvent,
  loadDemo,
  navDataSource,
} from './demo.js';

interface FileEvent {
  id: string;
  ts: string;
  event_value: string;
  event_options: Array<{ event_option_name: string; event_option_value: string }>;
}
const readDemo = <T>(file: string): T => JSON.parse(readFileSync(path.join(defaultDemoDir, file), 'utf8')) as T;
const diveEvents = readDemo<FileEvent[]>(demoFiles.diveEvents);
const [loweringFile] = readDemo<
  Array<{
    id: string;
    lowering_additional_meta: {
      milestones: Record<string, string>;
      stats: { max_depth: number; bounding_box: number[] };
    };
  }>
>(demoFiles.lowering);
const meta = loweringFile!.lowering_additional_meta;
const [north, east, south, west] = meta.stats.bounding_box as [number, number, number, number];
const maxDepth = meta.stats.max_depth;
const offBottomEvent = diveEvents.find((e) => e.event_options.some((o) => o.event_option_value === 'Off bottom'))!;

const expected = {
  users: 4,
  cruises: 1,
  lowerings: 1,
  events: 4540 + 525,
  // 48 vehicle + 28 vessel templates; the two files share no id.
  templates: 76,
  framegrabEvents: 330,
};

const values = (dataArray: string) =>
  Object.fromEntries(
    (JSON.parse(dataArray) as Array<{ data_name: string; data_value: string }>).map((d) => [d.data_name, d.data_value]),
  );

describe('demo data selection', () => {
  it('picks the photo, frame-grab and sample events of S0492', () => {
    expect(diveEvents).toHaveLength(4540);
    const picked = diveEvents.filter((e) => isFramegrabEvent(e.event_value));
    expect(picked).toHaveLength(expected.framegrabEvents);
    expect(new Set(picked.map((e) => e.event_value))).toEqual(
      new Set([
        'SAMPLE',
        'FRAMEGRAB',
        'Beauty Shot',
        'Photo - General',
        'Photo - Rock Sample for ID',
        'Photo - Bio Intended Sample',
        'Photo - Geology Context. Chimney',
      ]),
    );
  });

  it('derives stable, 24-hex ids for generated records', () => {
    const id = derivedId('6410f20b6594c9977675e47b', navDataSource);
    expect(id).toMatch(/^6410f20b[0-9a-f]{16}$/);
    expect(derivedId('6410f20b6594c9977675e47b', navDataSource)).toBe(id);
    expect(derivedId('6410f20b6594c9977675e47b', framegrabDataSource)).not.toBe(id);
  });
});

describe.each(engines)('demo loader on %s', (engine) => {
  let app: TestApp;

  beforeAll(async () => {
    // Demo mode: buildApp seeds the system users, then loads the demo.
    app = await createTestApp(engine, { mode: 'demo' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('loads the cruise, the dive, both event files, the templates and the users', async () => {
    expect(await tableCount(app, 'users')).toBe(expected.users);
    expect(await tableCount(app, 'cruises')).toBe(expected.cruises);
    expect(await tableCount(app, 'lowerings')).toBe(expected.lowerings);
    expect(await tableCount(app, 'events')).toBe(expected.events);
    expect(await tableCount(app, 'event_templates')).toBe(expected.templates);
    // 511 vessel navigation records + one vehicle fix per dive event + one frame-grab record per photo/sample event.
    expect(await tableCount(app, 'event_aux_data')).toBe(511 + 4540 + expected.framegrabEvents);

    const db = app.ctx.database.db;
    const cruise = await db.selectFrom('cruises').selectAll().executeTakeFirstOrThrow();
    expect(cruise).toMatchObject({
      id: '6400d0e5c476e18a7cfc4ed1',
      cruise_id: 'FKt230303',
      start_ts: Date.parse('2023-03-03T00:00:00.000Z'),
      stop_ts: Date.parse('2023-04-11T23:59:59.000Z'),
      cruise_location: 'Lost City, Mid-Atlantic Ridge',
      cruise_hidden: 0,
    });
    expect(JSON.parse(cruise.cruise_additional_meta)).toMatchObject({
      cruise_vessel: 'R/V Falkor (too)',
      cruise_pi: 'Dr. David Butterfield',
    });
    const lowering = await db.selectFrom('lowerings').selectAll().executeTakeFirstOrThrow();
    expect(lowering).toMatchObject({
      id: '6410e4e06594c9977675e47a',
      lowering_id: 'S0492',
      lowering_location: 'Kane FZ',
    });
    const loweringMeta = JSON.parse(lowering.lowering_additional_meta);
    // The record's off-bottom (01:39:44) is a slip: the pilots' "Off bottom" event is stored instead.
    expect(loweringMeta.milestones).toEqual({
      ...meta.milestones,
      lowering_off_bottom: '2023-03-15T07:35:21.277Z',
    });
    expect(loweringMeta.stats).toEqual(meta.stats);
    // File lists come from the file store, not from the record.
    expect(loweringMeta.lowering_files).toBeUndefined();

    const first = await db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', '6410f20b6594c9977675e47b')
      .executeTakeFirstOrThrow();
    expect(first).toEqual({
      id: '6410f20b6594c9977675e47b',
      ts: Date.parse('2023-03-14T22:15:39.479Z'),
      event_author: 'mt',
      event_value: 'VEHICLE',
      event_options: JSON.stringify([{ event_option_name: 'milestone', event_option_value: 'Off deck' }]),
      event_free_text: '',
      // Loaded by no caller: only managers may change or delete the demo's events.
      created_by: null,
      created_at: null,
    });
    const template = await db
      .selectFrom('event_templates')
      .selectAll()
      .where('id', '=', '5e2d2fda3785566255ab1e87')
      .executeTakeFirstOrThrow();
    expect(template).toMatchObject({
      event_name: '01. ROV Off Deck',
      event_value: 'VEHICLE',
      system_template: 1,
      admin_only: 1,
      disabled: 0,
      template_style: null,
    });
    const vessel = await db
      .selectFrom('event_aux_data')
      .selectAll()
      .where('id', '=', '64354800e74bc3fbf0b5608a')
      .executeTakeFirstOrThrow();
    expect(vessel).toMatchObject({ event_id: '643547ffe74bc3fbf0b56089', data_source: 'vesselRealtimeNavData' });
  });

  it('adds the sample checklists: Pre-dive with an automatic ASNAP item, and Post-dive', async () => {
    const admin = await app.login('admin', 'demo');
    const lists = (await app.api('GET', '/checklists', { token: admin })).json() as Array<{
      name: string;
      phase: string;
      items: Array<{ label: string; kind: string; condition?: unknown }>;
    }>;
    expect(lists.map((c) => [c.name, c.phase])).toEqual([
      ['Pre-dive', 'pre_dive'],
      ['Post-dive', 'post_dive'],
    ]);
    expect(lists[0]!.items[0]).toEqual({
      id: 'asnap',
      label: 'ASNAP on',
      kind: 'auto',
      condition: { type: 'custom_var', name: 'asnapStatus', equals: 'On' },
    });
    expect(lists[0]!.items.some((i) => i.kind === 'manual')).toBe(true);
  });

  it('gives the demo users their demo passwords and roles; pi is enabled', async () => {
    for (const [username, password] of [
      ['admin', 'demo'],
      ['pi', 'demo'],
      ['science', 'demo'],
      ['guest', ''],
    ] as const) {
      const res = await app.api('POST', '/auth/login', { body: { username, password } });
      expect(res.statusCode, username).toBe(200);
    }
    const token = await app.login('admin', 'demo');
    const users = (await app.api('GET', '/users', { token })).json() as Array<{
      username: string;
      roles: string[];
      disabled: boolean;
      system_user: boolean;
      id: string;
    }>;
    const byName = Object.fromEntries(users.map((u) => [u.username, u]));
    expect(byName.admin).toMatchObject({
      id: '5981f167212b348aed7fa9f5',
      roles: ['admin'],
      system_user: true,
      disabled: false,
    });
    expect(byName.guest).toMatchObject({
      id: '5981f167212b348aed7fb9f5',
      roles: ['event_logger', 'event_watcher'],
      system_user: true,
    });
    expect(byName.pi).toMatchObject({
      id: '5981f167212b348aed7fc9f5',
      roles: ['cruise_manager', 'event_logger', 'event_watcher'],
      disabled: false,
    });
    expect(byName.science).toMatchObject({
      id: '667d44a536139e84fe945c20',
      roles: ['event_logger', 'event_watcher', 'template_manager'],
      system_user: false,
    });
  });

  it('gives every S0492 event a navigation fix inside the bounding box, following the dive', async () => {
    const rows = await app.ctx.database.db
      .selectFrom('event_aux_data')
      .select(['event_id', 'data_array'])
      .where('data_source', '=', navDataSource)
      .execute();
    const byEvent = new Map(rows.map((r) => [r.event_id, r.data_array]));
    expect(byEvent.size).toBe(4540);
    const descending = Date.parse(meta.milestones.lowering_descending!);
    const onBottom = Date.parse(meta.milestones.lowering_on_bottom!);
    const offBottom = Date.parse(offBottomEvent.ts);
    const onSurface = Date.parse(meta.milestones.lowering_on_surface!);
    // Collect every violation, then assert once: 4,540 events × 8 checks.
    const problems: string[] = [];
    const check = (ok: boolean, what: string) => {
      if (!ok) problems.push(what);
    };
    let deepest = 0;
    for (const e of diveEvents) {
      const raw = byEvent.get(e.id);
      if (!raw) {
        problems.push(`${e.id}: no navigation`);
        continue;
      }
      const uoms = Object.fromEntries(
        (JSON.parse(raw) as Array<{ data_name: string; data_uom: string }>).map((d) => [d.data_name, d.data_uom]),
      );
      check(
        JSON.stringify(uoms) ===
          JSON.stringify({ latitude: 'ddeg', longitude: 'ddeg', depth: 'm', heading: 'deg', altitude: 'm' }),
        `${e.id}: units ${JSON.stringify(uoms)}`,
      );
      const v = values(raw);
      check(
        ['latitude', 'longitude', 'depth', 'heading', 'altitude'].every((n) => typeof v[n] === 'string'),
        `${e.id}: values must be strings`,
      );
      const lat = Number(v.latitude);
      const lon = Number(v.longitude);
      const depth = Number(v.depth);
      const heading = Number(v.heading);
      check(lat >= south && lat <= north && lon >= west && lon <= east, `${e.id}: ${lat},${lon} outside the box`);
      check(depth >= 0 && depth <= maxDepth, `${e.id}: depth ${depth}`);
      check(heading >= 0 && heading < 360, `${e.id}: heading ${heading}`);
      const ts = Date.parse(e.ts);
      if (ts < descending || ts > onSurface)
        check(depth < 3, `${e.ts}: ${depth} m before descending / after on surface`);
      if (ts > onBottom + 60_000 && ts < offBottom) {
        check(depth > maxDepth - 60, `${e.ts}: ${depth} m while on the bottom`);
        check(Number(v.altitude) < 10, `${e.ts}: altitude ${v.altitude} m while on the bottom`);
      }
      deepest = Math.max(deepest, depth);
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(deepest).toBeGreaterThan(maxDepth - 10);
  });

  it('adds two-camera frame grabs for photo and sample events, with real JPEG files', async () => {
    const rows = await app.ctx.database.db
      .selectFrom('event_aux_data')
      .select(['id', 'event_id', 'data_array'])
      .where('data_source', '=', framegrabDataSource)
      .execute();
    expect(rows).toHaveLength(expected.framegrabEvents);
    const wanted = new Set(diveEvents.filter((e) => isFramegrabEvent(e.event_value)).map((e) => e.id));
    const files = new Set<string>();
    for (const row of rows) {
      expect(wanted.has(row.event_id)).toBe(true);
      expect(row.id).toBe(derivedId(row.event_id, framegrabDataSource));
      const pairs = JSON.parse(row.data_array) as Array<{ data_name: string; data_value: string }>;
      expect(pairs.map((p) => p.data_name)).toEqual(['camera_name', 'filename', 'camera_name', 'filename']);
      expect([pairs[0]!.data_value, pairs[2]!.data_value]).toEqual(['Main Cam', 'Science Cam']);
      for (const p of [pairs[1]!, pairs[3]!]) {
        // Relative to the images folder: a bare file name.
        expect(p.data_value).toMatch(/^[^/\\]+\.jpg$/);
        files.add(path.join(app.ctx.paths.images, p.data_value));
      }
    }
    expect(files.size).toBe(expected.framegrabEvents * 2);
    // What the stock and WHOI clients request: `files/images/` followed by the stored value.
    const first = (JSON.parse(rows[0]!.data_array) as Array<{ data_value: string }>)[1]!.data_value;
    const served = await app.app.inject({ method: 'GET', url: `/sealog-server/files/images/${first}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    for (const file of files) {
      const head = readFileSync(file).subarray(0, 3);
      expect([...head], file).toEqual([0xff, 0xd8, 0xff]);
    }
    const sample = jpeg.decode(readFileSync([...files][0]!), { useTArray: true });
    expect([sample.width, sample.height]).toEqual([640, 360]);
  });

  it('loads again without adding, duplicating or overwriting anything', async () => {
    const db = app.ctx.database.db;
    // Edits a user might make between two starts.
    await db.updateTable('users').set({ fullname: 'Chief Scientist' }).where('username', '=', 'pi').execute();
    await db
      .updateTable('events')
      .set({ event_free_text: 'edited' })
      .where('id', '=', '6410f20b6594c9977675e47b')
      .execute();
    await db
      .updateTable('event_templates')
      .set({ event_name: 'renamed' })
      .where('id', '=', '5e2d2fda3785566255ab1e87')
      .execute();
    await db.updateTable('cruises').set({ cruise_location: 'Kane Fracture Zone' }).execute();
    const images = (
      await db
        .selectFrom('event_aux_data')
        .select('data_array')
        .where('data_source', '=', framegrabDataSource)
        .executeTakeFirstOrThrow()
    ).data_array;
    const picture = path.join(
      app.ctx.paths.images,
      (JSON.parse(images) as Array<{ data_value: string }>)[1]!.data_value,
    );
    const mtime = statSync(picture).mtimeMs;

    const counts = await loadDemo(app.ctx);
    expect(counts).toEqual({ users: 0, cruises: 0, lowerings: 0, events: 0, auxData: 0, templates: 0, images: 0 });
    expect(await tableCount(app, 'users')).toBe(expected.users);
    expect(await tableCount(app, 'events')).toBe(expected.events);
    expect(await tableCount(app, 'event_aux_data')).toBe(511 + 4540 + expected.framegrabEvents);
    expect(await tableCount(app, 'event_templates')).toBe(expected.templates);
    expect(await tableCount(app, 'cruises')).toBe(1);
    expect(await tableCount(app, 'lowerings')).toBe(1);

    expect(
      (await db.selectFrom('users').select('fullname').where('username', '=', 'pi').executeTakeFirstOrThrow()).fullname,
    ).toBe('Chief Scientist');
    expect(
      (
        await db
          .selectFrom('events')
          .select('event_free_text')
          .where('id', '=', '6410f20b6594c9977675e47b')
          .executeTakeFirstOrThrow()
      ).event_free_text,
    ).toBe('edited');
    expect(
      (
        await db
          .selectFrom('event_templates')
          .select('event_name')
          .where('id', '=', '5e2d2fda3785566255ab1e87')
          .executeTakeFirstOrThrow()
      ).event_name,
    ).toBe('renamed');
    expect((await db.selectFrom('cruises').select('cruise_location').executeTakeFirstOrThrow()).cruise_location).toBe(
      'Kane Fracture Zone',
    );
    expect(statSync(picture).mtimeMs).toBe(mtime);
    // A password changed after the first load stays changed.
    const admin = await app.login('admin', 'demo');
    const pi = (await app.api('POST', '/auth/login', { body: { username: 'pi', password: 'demo' } })).json() as {
      id: string;
    };
    expect(
      (await app.api('PATCH', `/users/${pi.id}`, { token: admin, body: { password: 'changed' } })).statusCode,
    ).toBe(204);
    await loadDemo(app.ctx);
    expect((await app.api('POST', '/auth/login', { body: { username: 'pi', password: 'changed' } })).statusCode).toBe(
      200,
    );
  });

  it('puts a missing demo record back on the next load', async () => {
    const db = app.ctx.database.db;
    await db.deleteFrom('events').where('id', '=', '6410f20b6594c9977675e47b').execute();
    const counts = await loadDemo(app.ctx);
    expect(counts).toMatchObject({ events: 1, auxData: 1 });
    expect(await tableCount(app, 'events')).toBe(expected.events);
  });
});
