import { Window, type Document, type Element } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newObjectId } from '@bathylog/shared';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../../test/role-tokens.js';
import {
  insertAux,
  insertCruise,
  insertEvents,
  insertLowering,
  loadDemoLowering,
  navData,
  type DemoLowering,
} from '../../../test/table-fixtures.js';

interface Feature {
  type: 'Feature';
  id?: string;
  geometry: { type: string; coordinates: unknown } | null;
  properties: Record<string, unknown>;
}
interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
}

/** Parses KML text as XML (a parse error fails the test). */
function parseKml(text: string): Document {
  const doc = new new Window().DOMParser().parseFromString(text, 'application/xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  expect(doc.documentElement.nodeName).toBe('kml');
  return doc;
}

const placemarks = (doc: Document) => [...doc.getElementsByTagName('Placemark')];
const dataOf = (placemark: Element, name: string) =>
  [...placemark.getElementsByTagName('Data')].find((d) => d.getAttribute('name') === name)?.textContent ?? null;

describe.each(engines)('GIS exports API on %s', (engine) => {
  let t: TestApp;
  let users: RoleUsers;
  let admin: string;
  let demo: DemoLowering;
  // A second dive in a cruise of its own: a zero fix, a record with no coordinates, an event with no nav.
  let cruise: string;
  let small: string;
  let smallEvents: string[];

  const at = (min: number) => Date.UTC(2024, 5, 1, 10, min);

  beforeAll(async () => {
    t = await createTestApp(engine);
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
    demo = await loadDemoLowering(t.ctx.database.db);
    const db = t.ctx.database.db;
    cruise = await insertCruise(db, { cruise_id: 'GIS-C', start_ts: at(0), stop_ts: at(59) });
    small = await insertLowering(db, { lowering_id: 'GIS-L1', start_ts: at(1), stop_ts: at(20) });
    await insertLowering(db, { lowering_id: 'GIS-L2', start_ts: at(30), stop_ts: at(40) });
    smallEvents = await insertEvents(db, [
      {
        ts: at(2),
        event_value: 'SAMPLE',
        event_author: 'ann',
        event_options: [{ event_option_name: 'kind', event_option_value: 'rock' }],
      },
      { ts: at(3), event_value: 'FISH', event_free_text: 'a "big" <one> & more' },
      { ts: at(4), event_value: 'ZERO' },
      { ts: at(5), event_value: 'BROKEN' },
      { ts: at(6), event_value: 'NONAV' },
      { ts: at(7), event_value: 'LAST' },
      { ts: at(31), event_value: 'L2-A' },
      { ts: at(32), event_value: 'L2-B' },
      { ts: at(50), event_value: 'OUTSIDE' },
    ]);
    const [s, f, z, b, , last, a2, b2, out] = smallEvents as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const nav = (id: string, lat: string, lon: string) => ({
      event_id: id,
      data_source: 'vehicleRealtimeNavData',
      data_array: [
        { data_name: 'latitude', data_value: lat, data_uom: 'ddeg' },
        { data_name: 'longitude', data_value: lon, data_uom: 'ddeg' },
        { data_name: 'depth', data_value: '812.5', data_uom: 'meters' },
      ],
    });
    await insertAux(db, [
      nav(s, '10.5', '-120.25'),
      nav(f, '10.6', '-120.35'),
      nav(z, '0', '0'),
      { event_id: b, data_source: 'vehicleRealtimeNavData', data_array: [{ data_name: 'depth', data_value: '5' }] },
      nav(last, '10.7', '-120.45'),
      { event_id: s, data_source: 'ctd', data_array: [{ data_name: 'temp', data_value: '3.2', data_uom: 'C' }] },
      navData(a2, 1),
      navData(b2, 2),
      nav(out, '11', '-121'),
    ]);
  });
  afterAll(() => t?.close());

  const get = (url: string, token: string | undefined = admin) => t.api('GET', url, { token });

  it('GeoJSON of S0492: a LineString of every nav point in lon/lat order and a Point per event', async () => {
    const res = await get(`/gis_exports/bylowering/${demo.loweringId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/geo+json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="S0492_sealog_gisExport.geojson"');
    const fc = res.json() as FeatureCollection;
    expect(fc.type).toBe('FeatureCollection');
    const [track, ...events] = fc.features;
    expect(track!.geometry!.type).toBe('LineString');
    const coords = track!.geometry!.coordinates as Array<[number, number]>;
    expect(coords).toHaveLength(4540);
    expect(coords[0]).toEqual([-45.14, 23.55]);
    expect(coords[1]).toEqual([-45.14001, 23.55001]);
    expect(track!.properties).toMatchObject({
      kind: 'track',
      lowering_id: 'S0492',
      position_source: 'vehicleRealtimeNavData',
      points: 4540,
    });
    expect(events.map((e) => e.id)).toEqual(demo.events.map((e) => e.id));
    expect(events.every((e) => e.geometry?.type === 'Point')).toBe(true);
    const first = events[0]!;
    expect(first.geometry!.coordinates).toEqual([-45.14, 23.55]);
    expect(first.properties).toMatchObject({
      kind: 'event',
      id: demo.events[0]!.id,
      ts: '2023-03-14T22:15:39.479Z',
      event_value: 'VEHICLE',
      event_author: 'mt',
      event_free_text: '',
      'event_option.milestone': 'Off deck',
      'vehicleRealtimeNavData.latitude_value': '23.550000',
      'vehicleRealtimeNavData.depth_uom': 'meters',
      depth: 1000,
    });
    const sample = events.find((e) => e.properties.event_value === 'SAMPLE')!;
    expect(sample.properties['framegrabber.filename_2_value']).toMatch(/^\/images\/down_\d+\.jpg$/);
  });

  it('KML of S0492: a LineString Placemark and one Placemark per event, lon,lat coordinates', async () => {
    const res = await get(`/gis_exports/bylowering/${demo.loweringId}?format=kml`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.google-earth.kml+xml; charset=utf-8');
    // Read as text: happy-dom takes minutes over 2 MB of XML. The small dive below is parsed as
    // XML, and the browser test parses this very file with Chromium's DOMParser.
    const body = res.body;
    expect(
      body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">'),
    ).toBe(true);
    expect(body.endsWith('</Document></kml>')).toBe(true);
    expect(body.match(/<Placemark[ >]/g)).toHaveLength(1 + 4540);
    const line = /<LineString><tessellate>1<\/tessellate><coordinates>([^<]*)<\/coordinates><\/LineString>/.exec(body)!;
    const points = line[1]!.trim().split(/\s+/);
    expect(points).toHaveLength(4540);
    expect(points[0]).toBe('-45.14,23.55');
    const ids = [...body.matchAll(/<Placemark id="([0-9a-f]{24})">/g)].map((m) => m[1]);
    expect(ids).toEqual(demo.events.map((e) => e.id));
    expect(body.match(/<Point><coordinates>-?\d+(\.\d+)?,-?\d+(\.\d+)?<\/coordinates><\/Point>/g)).toHaveLength(4540);
    const first = parseKml(
      `<kml xmlns="http://www.opengis.net/kml/2.2">${body.slice(body.indexOf(`<Placemark id="${ids[0]}">`), body.indexOf(`<Placemark id="${ids[1]}">`))}</kml>`,
    ).getElementsByTagName('Placemark')[0]!;
    expect(first.getElementsByTagName('name')[0]!.textContent).toBe('VEHICLE');
    expect(first.getElementsByTagName('when')[0]!.textContent).toBe('2023-03-14T22:15:39.479Z');
    expect(first.getElementsByTagName('coordinates')[0]!.textContent).toBe('-45.14,23.55');
    expect(dataOf(first, 'event_option.milestone')).toBe('Off deck');
  });

  it('drops zero fixes and unreadable records from the track; events without a fix keep no geometry', async () => {
    const fc = (await get(`/gis_exports/bylowering/${small}`)).json() as FeatureCollection;
    const [track, ...events] = fc.features;
    expect(track!.geometry!.coordinates).toEqual([
      [-120.25, 10.5],
      [-120.35, 10.6],
      [-120.45, 10.7],
    ]);
    expect(events.map((e) => [e.properties.event_value, e.geometry?.coordinates ?? null])).toEqual([
      ['SAMPLE', [-120.25, 10.5]],
      ['FISH', [-120.35, 10.6]],
      ['ZERO', null],
      ['BROKEN', null],
      ['NONAV', null],
      ['LAST', [-120.45, 10.7]],
    ]);
    expect(events[0]!.properties).toMatchObject({
      'event_option.kind': 'rock',
      'ctd.temp_value': '3.2',
      'ctd.temp_uom': 'C',
    });
    const kml = parseKml((await get(`/gis_exports/bylowering/${small}?format=kml`)).body);
    const fish = placemarks(kml).find((p) => p.getElementsByTagName('name')[0]!.textContent === 'FISH')!;
    expect(dataOf(fish, 'event_free_text')).toBe('a "big" <one> & more');
  });

  it('tracks/bylowering: the track as columns in event order, zero fixes without lat/lon, unreadable records as problems', async () => {
    const res = await get(`/tracks/bylowering/${small}`);
    expect(res.statusCode).toBe(200);
    const [s, f, z, b, , last] = smallEvents;
    expect(res.json()).toEqual({
      source: 'vehicleRealtimeNavData',
      eventIds: [s, f, z, last],
      ts: [at(2), at(3), at(4), at(7)],
      lat: [10.5, 10.6, null, 10.7],
      lon: [-120.25, -120.35, null, -120.45],
      depth: [812.5, 812.5, 812.5, 812.5],
      problems: [b],
    });
    // S0492: a row for every event with nav, in time order, as the GeoJSON track has them.
    const demoTrack = (await get(`/tracks/bylowering/${demo.loweringId}`)).json() as { ts: number[]; lat: number[] };
    const fc = (await get(`/gis_exports/bylowering/${demo.loweringId}`)).json() as FeatureCollection;
    expect(demoTrack.lat).toHaveLength((fc.features[0]!.geometry!.coordinates as unknown[]).length);
    expect([...demoTrack.ts].sort((a, b) => a - b)).toEqual(demoTrack.ts);
    expect((await t.api('GET', `/tracks/bylowering/${small}`)).statusCode).toBe(401);
    const missing = await get(`/tracks/bylowering/${newObjectId()}`);
    expect(missing.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'lowering not found for that id' });
    expect((await get('/tracks/bylowering/nope')).statusCode).toBe(400);
  });

  it('applies the event filter to the events, not to the track', async () => {
    const fc = (await get(`/gis_exports/bylowering/${small}?value=FISH,LAST`)).json() as FeatureCollection;
    expect(fc.features[0]!.geometry!.coordinates).toHaveLength(3);
    expect(fc.features.slice(1).map((e) => e.properties.event_value)).toEqual(['FISH', 'LAST']);
  });

  it('a cruise: one track per lowering, then every event of the cruise with its lowering id', async () => {
    const fc = (await get(`/gis_exports/bycruise/${cruise}`)).json() as FeatureCollection;
    const tracks = fc.features.filter((f) => f.properties.kind === 'track');
    expect(tracks.map((f) => f.properties.lowering_id)).toEqual(['GIS-L1', 'GIS-L2']);
    const events = fc.features.filter((f) => f.properties.kind === 'event');
    expect(events.map((e) => [e.properties.event_value, e.properties.lowering_id ?? null])).toEqual([
      ['SAMPLE', 'GIS-L1'],
      ['FISH', 'GIS-L1'],
      ['ZERO', 'GIS-L1'],
      ['BROKEN', 'GIS-L1'],
      ['NONAV', 'GIS-L1'],
      ['LAST', 'GIS-L1'],
      ['L2-A', 'GIS-L2'],
      ['L2-B', 'GIS-L2'],
      ['OUTSIDE', null],
    ]);
    expect(events.every((e) => e.properties.cruise_id === 'GIS-C')).toBe(true);
    expect(events.at(-1)!.geometry!.coordinates).toEqual([-121, 11]);
    const kml = parseKml((await get(`/gis_exports/bycruise/${cruise}?format=kml`)).body);
    expect(placemarks(kml).filter((p) => p.getElementsByTagName('LineString').length === 1)).toHaveLength(2);
    expect(placemarks(kml)).toHaveLength(2 + 9);
  });

  it('answers as the event exports do: 401 without a token, 404 for a missing record, 400 for a bad format', async () => {
    expect((await t.api('GET', `/gis_exports/bylowering/${small}`)).statusCode).toBe(401);
    expect((await get(`/gis_exports/bylowering/${small}`, users.tokens.disabled)).statusCode).toBe(401);
    expect((await get(`/gis_exports/bylowering/${small}`, users.tokens.guest)).statusCode).toBe(200);
    const missing = await get(`/gis_exports/bylowering/${newObjectId()}`);
    expect(missing.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'lowering not found for that id' });
    expect((await get(`/gis_exports/bycruise/${newObjectId()}`)).statusCode).toBe(404);
    const bad = await get(`/gis_exports/bylowering/${small}?format=shp`);
    expect(bad.statusCode).toBe(400);
    expect((await get(`/gis_exports/bylowering/nothex`)).statusCode).toBe(400);
  });

  it('with access control, only admins and members read a restricted lowering or its cruise tracks', async () => {
    const strict = await createTestApp(engine, { useAccessControl: true });
    try {
      const strictUsers = await createRoleUsers(strict);
      const db = strict.ctx.database.db;
      const c = await insertCruise(db, { start_ts: at(0), stop_ts: at(59) });
      const restricted = await insertLowering(db, {
        lowering_id: 'SECRET',
        start_ts: at(1),
        stop_ts: at(9),
        accessList: [strictUsers.ids.event_logger!],
      });
      const [e] = await insertEvents(db, [{ ts: at(2), event_value: 'FISH' }]);
      await insertAux(db, [navData(e!, 0), { ...navData(e!, 1), data_source: 'other' }]);
      const read = (token: string | undefined) => strict.api('GET', `/gis_exports/bylowering/${restricted}`, { token });
      expect((await read(strictUsers.tokens.admin)).statusCode).toBe(200);
      expect((await read(strictUsers.tokens.event_logger)).statusCode).toBe(200);
      const refused = await read(strictUsers.tokens.event_watcher);
      expect(refused.json()).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'User not authorized to retrieve this lowering',
      });
      const cruiseFc = (
        await strict.api('GET', `/gis_exports/bycruise/${c}`, { token: strictUsers.tokens.event_watcher })
      ).json() as FeatureCollection;
      expect(cruiseFc.features.filter((f) => f.properties.kind === 'track')).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});
