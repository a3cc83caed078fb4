import { describe, expect, it } from 'vitest';
import { requestAt } from '../../../test/aux-live.js';
import { interpolateValue, ReadingBuffer } from './buffer.js';

/** A buffer on a clock the test moves. */
function buffer(limits = { maxAgeMs: 60_000, maxCount: 100 }) {
  const clock = { now: 1_000_000 };
  return { clock, buf: new ReadingBuffer(limits, () => clock.now) };
}

describe('the live sources’ time-indexed buffer', () => {
  it('answers an event a few seconds late with the value of its own time, marked buffered', () => {
    const { clock, buf } = buffer();
    for (let i = 0; i < 10; i++) {
      clock.now += 1000;
      buf.push({ ts: clock.now, values: { 'GGA.latitude': 23.5 + i / 1000 } });
    }
    const late = buf.answer(requestAt(clock.now - 3500, ['GGA.latitude']));
    expect(late).toEqual({
      kind: 'reading',
      reading: { ts: clock.now - 4000, values: { 'GGA.latitude': 23.505 } },
      provenance: 'buffered',
    });
    const current = buf.answer(requestAt(clock.now, ['GGA.latitude']));
    expect(current).toMatchObject({
      kind: 'reading',
      provenance: 'realtime',
      reading: { values: { 'GGA.latitude': 23.509 } },
    });
  });

  it('never answers for a time it did not hold: before the source started, beyond its age or count bound', () => {
    const { clock, buf } = buffer({ maxAgeMs: 10_000, maxCount: 5 });
    const started = clock.now;
    clock.now += 500;
    expect(buf.answer(requestAt(started - 1, ['x']))).toEqual({ kind: 'not_backfillable' });
    for (let i = 0; i < 8; i++) {
      clock.now += 1000;
      buf.push({ ts: clock.now, values: { x: i } });
    }
    // Three readings were evicted by the count bound: the value before the oldest kept one is unknown.
    expect(buf.size).toBe(5);
    expect(buf.answer(requestAt(started + 3600, ['x']))).toEqual({ kind: 'not_backfillable' });
    expect(buf.answer(requestAt(started + 4600, ['x']))).toMatchObject({
      kind: 'reading',
      reading: { values: { x: 3 } },
    });
    // The age bound: 10 s later everything but the newest seconds is forgotten.
    clock.now += 10_000;
    expect(buf.answer(requestAt(clock.now - 10_001, ['x']))).toEqual({ kind: 'not_backfillable' });
  });

  it('says stale when the newest value is older than the maximum age, and no data when there is none', () => {
    const { clock, buf } = buffer();
    clock.now += 1000;
    const ts = clock.now;
    buf.push({ ts, values: { 'HDT.heading': 11.04 } });
    clock.now += 25_000;
    expect(buf.answer(requestAt(clock.now, ['HDT.heading']))).toEqual({ kind: 'stale', newestTs: ts });
    expect(buf.answer(requestAt(clock.now, ['HDT.heading'], { maxAgeMs: 30_000 }))).toMatchObject({ kind: 'reading' });
    expect(buf.answer(requestAt(clock.now, ['GGA.latitude']))).toEqual({ kind: 'no_data' });
    // A value from after the event never answers for it.
    expect(buf.answer(requestAt(ts - 1, ['HDT.heading']))).toEqual({ kind: 'no_data' });
  });

  it('merges keys from different sentences, each at or before the event', () => {
    const { clock, buf } = buffer();
    clock.now += 1000;
    buf.push({ ts: clock.now, values: { 'GGA.latitude': 1, 'GGA.longitude': 2 } });
    clock.now += 200;
    buf.push({ ts: clock.now, values: { 'HDT.heading': 3 } });
    const r = buf.answer(requestAt(clock.now, ['GGA.latitude', 'GGA.longitude', 'HDT.heading', 'VTG.speedKnots']));
    expect(r).toMatchObject({
      kind: 'reading',
      reading: { ts: clock.now, values: { 'GGA.latitude': 1, 'GGA.longitude': 2, 'HDT.heading': 3 } },
    });
    expect(Object.keys((r as { reading: { values: object } }).reading.values)).not.toContain('VTG.speedKnots');
  });

  it('interpolates positions between the fixes around the event, across the 180° meridian', () => {
    const { clock, buf } = buffer();
    const t0 = clock.now + 1000;
    buf.push({ ts: t0, values: { 'TPV.lat': -16.0, 'TPV.lon': 179.9, 'TPV.speed': 1 } });
    buf.push({ ts: t0 + 1000, values: { 'TPV.lat': -16.1, 'TPV.lon': -179.9, 'TPV.speed': 3 } });
    clock.now = t0 + 1000;
    const r = buf.answer(
      requestAt(t0 + 250, ['TPV.lat', 'TPV.lon', 'TPV.speed'], { interpolate: ['TPV.lat', 'TPV.lon'] }),
    );
    expect(r.kind).toBe('reading');
    const { values, ts } = (r as { reading: { ts: number; values: Record<string, number> } }).reading;
    expect(ts).toBe(t0 + 250);
    expect(values['TPV.lat']).toBeCloseTo(-16.025, 9);
    expect(values['TPV.lon']).toBeCloseTo(179.95, 9);
    expect(values['TPV.speed']).toBe(1); // not listed: the value at or before the event
  });

  it('interpolates angles the short way round', () => {
    expect(interpolateValue('TPV.lon', 179, -179, 0.75)).toBeCloseTo(-179.5, 9);
    expect(interpolateValue('TPV.lon', -179, 179, 0.5)).toBeCloseTo(-180, 9);
    expect(interpolateValue('HDT.heading', 350, 10, 0.5)).toBeCloseTo(0, 9);
    expect(interpolateValue('HDT.heading', 10, 350, 0.25)).toBeCloseTo(5, 9);
    expect(interpolateValue('GGA.latitude', 10, 20, 0.5)).toBe(15);
    expect(interpolateValue('GGA.fixType', 'fix', 'fix', 0.5)).toBeUndefined();
  });
});
