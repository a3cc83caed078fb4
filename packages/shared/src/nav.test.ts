import { describe, expect, it } from 'vitest';
import {
  boundingBoxOf,
  buildDiveTrack,
  diveTrackOf,
  maxDepthOf,
  positionRecordOf,
  readAuxPosition,
  trackColumnsOf,
} from './nav.js';
import { readTrackColumns } from './schemas/events.js';

const nav = (lat: string | number, lon: string | number, depth?: string) => ({
  data_source: 'vehicleRealtimeNavData',
  data_array: [
    { data_name: 'latitude', data_value: lat, data_uom: 'ddeg' },
    { data_name: 'longitude', data_value: lon, data_uom: 'ddeg' },
    ...(depth === undefined ? [] : [{ data_name: 'depth', data_value: depth, data_uom: 'm' }]),
  ],
});

describe('readAuxPosition', () => {
  it('reads string and number values', () => {
    expect(readAuxPosition(nav('23.5', -45.25, '1987.2'))).toEqual({
      ok: true,
      position: { lat: 23.5, lon: -45.25, depth: 1987.2 },
    });
  });
  it('drops a zero coordinate but keeps the depth', () => {
    expect(readAuxPosition(nav(0, '-45.25', '12'))).toEqual({
      ok: true,
      position: { lat: null, lon: null, depth: 12 },
    });
  });
  it('is a parsing problem without a numeric latitude or longitude', () => {
    expect(readAuxPosition({ data_array: [{ data_name: 'depth', data_value: 3 }] })).toEqual({
      ok: false,
      problem: 'Problem parsing',
    });
    expect(readAuxPosition(nav('north', 1))).toMatchObject({ ok: false });
    expect(readAuxPosition(nav(' ', 1))).toMatchObject({ ok: false });
    expect(readAuxPosition(nav(91, 1))).toMatchObject({ ok: false });
  });
});

describe('buildDiveTrack', () => {
  const usbl = (lat: number, lon: number) => ({ ...nav(lat, lon, '5'), data_source: 'vehicleRealtimeUSBLData' });
  it('uses the first configured source that has records, even when its points are all dropped', () => {
    const events = [
      { id: 'a', ts: 1, aux_data: [nav(0, 0, '10'), usbl(1, 1)] },
      { id: 'b', ts: 2, aux_data: [usbl(2, 2)] },
    ];
    const track = buildDiveTrack(events, ['vehicleRealtimeNavData', 'vehicleRealtimeUSBLData']);
    expect(track.source).toBe('vehicleRealtimeNavData');
    expect(track.points).toEqual([]);
    expect(track.depths).toEqual([{ ts: 1, eventId: 'a', depth: 10 }]);
  });
  it('falls through to the next source and records parse problems', () => {
    const events = [
      { id: 'a', ts: 1, aux_data: [usbl(1, 2)] },
      { id: 'b', ts: 2, aux_data: [{ data_source: 'vehicleRealtimeUSBLData', data_array: [] }] },
      { id: 'c', ts: 3, aux_data: [] },
    ];
    const track = buildDiveTrack(events, ['vehicleRealtimeNavData', 'vehicleRealtimeUSBLData']);
    expect(track.source).toBe('vehicleRealtimeUSBLData');
    expect(track.points).toEqual([{ ts: 1, eventId: 'a', lat: 1, lon: 2, depth: 5 }]);
    expect(track.problems).toEqual([{ eventId: 'b', problem: 'Problem parsing' }]);
  });
  it('has no source when no configured source has data', () => {
    expect(buildDiveTrack([{ id: 'a', ts: 1, aux_data: [] }], ['x']).source).toBeNull();
  });
});

describe('calculators', () => {
  it('max depth and bounding box', () => {
    expect(maxDepthOf([])).toBeNull();
    expect(
      maxDepthOf([
        { ts: 1, eventId: 'a', depth: 3 },
        { ts: 2, eventId: 'b', depth: 1200.5 },
      ]),
    ).toBe(1200.5);
    expect(boundingBoxOf([])).toBeNull();
    expect(
      boundingBoxOf([
        { lat: -10, lon: 170 },
        { lat: 5, lon: 179 },
        { lat: 1, lon: 175 },
      ]),
    ).toEqual({ north: 5, east: 179, south: -10, west: 170 });
  });
  it('positionRecordOf picks the record of the first configured source present', () => {
    const a = nav(1, 1);
    const b = { ...nav(2, 2), data_source: 'usbl' };
    expect(positionRecordOf([b, a], ['vehicleRealtimeNavData', 'usbl'])).toBe(a);
    expect(positionRecordOf([b], ['vehicleRealtimeNavData', 'usbl'])).toBe(b);
    expect(positionRecordOf([], ['x'])).toBeNull();
  });
});

describe('track columns (GET tracks/bylowering)', () => {
  const nav = (lat: string, lon: string, depth?: string) => ({
    data_source: 'nav',
    data_array: [
      { data_name: 'latitude', data_value: lat },
      { data_name: 'longitude', data_value: lon },
      ...(depth === undefined ? [] : [{ data_name: 'depth', data_value: depth }]),
    ],
  });
  const events = [
    { id: 'a', ts: 1, aux_data: [nav('10', '20', '100')] },
    { id: 'b', ts: 2, aux_data: [nav('0', '0', '150')] },
    { id: 'c', ts: 3, aux_data: [nav('x', '20')] },
    { id: 'd', ts: 4, aux_data: [nav('11', '21')] },
    { id: 'e', ts: 5, aux_data: [] },
  ];

  it('holds every readable record once, in event order, and reads back as the same track', () => {
    const track = buildDiveTrack(events, ['nav']);
    const columns = trackColumnsOf(
      track,
      events.map((e) => e.id),
    );
    expect(columns).toEqual({
      source: 'nav',
      eventIds: ['a', 'b', 'd'],
      ts: [1, 2, 4],
      lat: [10, null, 11],
      lon: [20, null, 21],
      depth: [100, 150, null],
      problems: ['c'],
    });
    expect(diveTrackOf(columns)).toEqual(track);
  });

  it('readTrackColumns refuses columns of different lengths or wrong types', () => {
    const good = trackColumnsOf(buildDiveTrack(events, ['nav']), ['a', 'b', 'c', 'd', 'e']);
    expect(readTrackColumns(JSON.parse(JSON.stringify(good)))).toEqual(good);
    expect(() => readTrackColumns({ ...good, lat: [10, null] })).toThrow('Invalid track response');
    expect(() => readTrackColumns({ ...good, ts: ['1', 2, 4] })).toThrow('Invalid track response');
    expect(() => readTrackColumns(null)).toThrow('Invalid track response');
  });
});
