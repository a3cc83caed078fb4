import { filteredTrackLength, haversineMetres } from '@bathylog/shared';
import { describe, expect, it } from 'vitest';
import { boundingBoxFromStats, diveTimeline, DiveTrack, navDataArray, plannedBottomPath } from './demo-navigation.js';

const t = (iso: string) => Date.parse(iso);
const box = boundingBoxFromStats([23.551409, -45.133938, 23.547893, -45.150482]);
const lowering = {
  start_ts: t('2023-03-14T22:15:39.479Z'),
  stop_ts: t('2023-03-15T08:32:32.654Z'),
  milestones: {
    lowering_descending: '2023-03-14T22:29:58.755Z',
    lowering_on_bottom: '2023-03-14T23:45:16.031Z',
    lowering_off_bottom: '2023-03-15T01:39:44.340Z',
    lowering_on_surface: '2023-03-15T08:11:12.549Z',
    lowering_aborted: null,
  },
};
const milestoneEvent = (iso: string, value: string) => ({
  ts: t(iso),
  event_options: [{ event_option_name: 'milestone', event_option_value: value }],
});

describe('boundingBoxFromStats', () => {
  it('reads [north, east, south, west]', () => {
    expect(box).toEqual({ north: 23.551409, east: -45.133938, south: 23.547893, west: -45.150482 });
  });

  it('rejects boxes in another order or incomplete', () => {
    expect(() => boundingBoxFromStats([23.547893, -45.150482, 23.551409, -45.133938])).toThrow(
      /north, east, south, west/,
    );
    expect(() => boundingBoxFromStats([1, 2, 3])).toThrow();
  });
});

describe('diveTimeline', () => {
  it('takes the milestones of the lowering record', () => {
    expect(diveTimeline(lowering, [])).toEqual({
      start: lowering.start_ts,
      descending: t('2023-03-14T22:29:58.755Z'),
      onBottom: t('2023-03-14T23:45:16.031Z'),
      offBottom: t('2023-03-15T01:39:44.340Z'),
      onSurface: t('2023-03-15T08:11:12.549Z'),
      stop: lowering.stop_ts,
    });
  });

  it('prefers the milestone events the pilots logged (S0492 left the bottom at 07:35, not 01:39)', () => {
    const timeline = diveTimeline(lowering, [
      milestoneEvent('2023-03-14T23:45:16.031Z', 'On bottom'),
      milestoneEvent('2023-03-15T07:35:21.277Z', 'Off bottom'),
      milestoneEvent('2023-03-15T08:11:12.549Z', 'On surface'),
    ]);
    expect(timeline.offBottom).toBe(t('2023-03-15T07:35:21.277Z'));
    expect(timeline.onBottom).toBe(t('2023-03-14T23:45:16.031Z'));
  });

  it('falls back to fractions of the dive when milestones are missing or out of order', () => {
    const bare = { start_ts: 0, stop_ts: 100_000, milestones: {} };
    expect(diveTimeline(bare, [])).toEqual({
      start: 0,
      descending: 5_000,
      onBottom: 20_000,
      offBottom: 80_000,
      onSurface: 95_000,
      stop: 100_000,
    });
    const backwards = {
      start_ts: 0,
      stop_ts: 100_000,
      milestones: { lowering_descending: new Date(90_000).toISOString() },
    };
    expect(diveTimeline(backwards, []).descending).toBe(5_000);
  });
});

describe('DiveTrack', () => {
  const timeline = diveTimeline(lowering, [milestoneEvent('2023-03-15T07:35:21.277Z', 'Off bottom')]);
  const maxDepth = 2011.54;
  const track = new DiveTrack(timeline, box, maxDepth, 'FKt230303/S0492');

  it('is deterministic for a seed and differs for another', () => {
    const again = new DiveTrack(timeline, box, maxDepth, 'FKt230303/S0492');
    const other = new DiveTrack(timeline, box, maxDepth, 'another');
    const when = t('2023-03-15T03:00:00Z');
    expect(again.at(when)).toEqual(track.at(when));
    expect(other.at(when)).not.toEqual(track.at(when));
  });

  it('stays in the box, never deeper than max depth, with a sane heading, every 10 s of the dive', () => {
    const problems: string[] = [];
    for (let ts = lowering.start_ts; ts <= lowering.stop_ts; ts += 10_000) {
      const f = track.at(ts);
      const ok =
        f.latitude >= box.south &&
        f.latitude <= box.north &&
        f.longitude >= box.west &&
        f.longitude <= box.east &&
        f.depth >= 0 &&
        f.depth <= maxDepth &&
        f.heading >= 0 &&
        f.heading < 360 &&
        f.altitude >= 0;
      if (!ok) problems.push(`${new Date(ts).toISOString()}: ${JSON.stringify(f)}`);
    }
    expect(problems.slice(0, 5)).toEqual([]);
  });

  it('is at the surface, descends, works a few metres above the bottom, and ascends', () => {
    expect(track.at(timeline.descending - 1).depth).toBeLessThan(3);
    const quarter = track.at(timeline.descending + (timeline.onBottom - timeline.descending) / 4).depth;
    const half = track.at(timeline.descending + (timeline.onBottom - timeline.descending) / 2).depth;
    expect(quarter).toBeGreaterThan(100);
    expect(half).toBeGreaterThan(quarter);
    for (let ts = timeline.onBottom + 60_000; ts < timeline.offBottom; ts += 60_000) {
      const fix = track.at(ts);
      expect(fix.depth).toBeGreaterThan(maxDepth - 60);
      expect(fix.altitude).toBeGreaterThanOrEqual(0.5);
      expect(fix.altitude).toBeLessThanOrEqual(6.5);
    }
    const ascending = track.at(timeline.offBottom + (timeline.onSurface - timeline.offBottom) / 2).depth;
    expect(ascending).toBeLessThan(maxDepth - 60);
    expect(ascending).toBeGreaterThan(3);
    expect(track.at(timeline.onSurface + 1).depth).toBeLessThan(3);
  });

  it('crosses the box on the bottom rather than staying put', () => {
    const start = track.at(timeline.onBottom + 60_000);
    const end = track.at(timeline.offBottom - 60_000);
    expect(end.longitude - start.longitude).toBeGreaterThan((box.east - box.west) * 0.4);
  });

  // Fixes every 5 s on the bottom, as a USBL gives them.
  const bottomFixes = () => {
    const out: Array<{ ts: number; lat: number; lon: number }> = [];
    for (let ts = timeline.onBottom; ts <= timeline.offBottom; ts += 5_000) {
      const f = track.at(ts);
      out.push({ ts, lat: f.latitude, lon: f.longitude });
    }
    return out;
  };

  it("flies a path on the bottom whose filtered length is about the dive plan's 2.6 km", () => {
    const length = filteredTrackLength(bottomFixes());
    expect(length).toBeGreaterThan(0.85 * plannedBottomPath);
    expect(length).toBeLessThan(1.1 * plannedBottomPath);
  });

  it('carries USBL-like noise: a few metres of scatter and an occasional outlier', () => {
    const fixes = bottomFixes();
    // Distance of each fix from the midpoint of its neighbours: the path moves < 1 m in 5 s, so
    // this is the noise alone.
    const scatter = fixes.slice(1, -1).map((p, i) => {
      const a = fixes[i]!;
      const b = fixes[i + 2]!;
      return haversineMetres(p, { lat: (a.lat + b.lat) / 2, lon: (a.lon + b.lon) / 2 });
    });
    const sorted = [...scatter].sort((x, y) => x - y);
    const medianScatter = sorted[sorted.length >> 1]!;
    expect(medianScatter).toBeGreaterThan(1);
    expect(medianScatter).toBeLessThan(8);
    const outliers = scatter.filter((d) => d > 20).length;
    expect(outliers).toBeGreaterThan(0);
    expect(outliers).toBeLessThan(scatter.length * 0.05);
  });

  it('writes values as strings with their units, like the Sealog inserters', () => {
    expect(navDataArray({ latitude: 23.5, longitude: -45.1, depth: 1987.214, heading: 359.999, altitude: 3 })).toEqual([
      { data_name: 'latitude', data_value: '23.500000', data_uom: 'ddeg' },
      { data_name: 'longitude', data_value: '-45.100000', data_uom: 'ddeg' },
      { data_name: 'depth', data_value: '1987.21', data_uom: 'm' },
      { data_name: 'heading', data_value: '0.00', data_uom: 'deg' },
      { data_name: 'altitude', data_value: '3.00', data_uom: 'm' },
    ]);
  });
});
