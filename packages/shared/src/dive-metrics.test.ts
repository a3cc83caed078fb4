import { describe, expect, it } from 'vitest';
import { clientSettingsSchema } from './schemas/client-settings.js';
import {
  bottomSpanOf,
  cruiseMetricsCsv,
  distanceMethod,
  filteredTrackLength,
  haversineMetres,
  milestoneFramegrab,
  milestoneFramegrabWindowText,
  metricRows,
  metricsCsv,
  sumFigures,
  trackFilter,
  TrackFolder,
  type DiveFigures,
  type LoweringMetrics,
} from './dive-metrics.js';

const settings = clientSettingsSchema.parse({}).milestones;

const figures = (over: Partial<DiveFigures>): DiveFigures => ({
  durations: [],
  max_depth: null,
  mean_depth: null,
  depth_readings: 0,
  bottom_mean_depth: null,
  bottom_depth_readings: 0,
  bottom_distance: null,
  events_total: 0,
  events_by_category: {},
  events_by_author: {},
  samples_total: 0,
  samples_by_value: {},
  framegrabs_total: 0,
  framegrabs_by_camera: {},
  ...over,
});

describe('dive metrics rules', () => {
  it('haversine: one degree of latitude is 111.2 km; a degree of longitude at 60° half of one at the equator', () => {
    expect(haversineMetres({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeCloseTo(111_195.1, 0);
    const equator = haversineMetres({ lat: 0, lon: 10 }, { lat: 0, lon: 11 });
    expect(haversineMetres({ lat: 60, lon: 10 }, { lat: 60, lon: 11 }) / equator).toBeCloseTo(0.5, 3);
  });

  it('folds depths (whole dive and on bottom) and measures distance only between on bottom and off bottom', () => {
    const folder = new TrackFolder({ from: 600_000, to: 1_800_000 });
    for (const [ts, depth] of [
      [0, 2],
      [600_000, 300],
      [1_200_000, 400],
      [2_400_000, 10],
    ] as const) {
      folder.depth({ ts, depth });
    }
    // One degree of longitude on the bottom (fixes far apart in time: the median leaves each as it
    // is); the points outside the bottom span are not counted.
    folder.point({ ts: 0, lat: 0, lon: 0 });
    folder.point({ ts: 600_000, lat: 0, lon: 1 });
    folder.point({ ts: 1_800_000, lat: 0, lon: 2 });
    folder.point({ ts: 2_400_000, lat: 0, lon: 3 });
    const r = folder.result();
    expect(r).toMatchObject({
      max_depth: 400,
      mean_depth: 178,
      depth_readings: 4,
      bottom_mean_depth: 350,
      bottom_depth_readings: 2,
    });
    expect(r.bottom_distance).toBeCloseTo(haversineMetres({ lat: 0, lon: 1 }, { lat: 0, lon: 2 }), 6);
    expect(new TrackFolder(null).result()).toEqual({
      max_depth: null,
      mean_depth: null,
      depth_readings: 0,
      bottom_mean_depth: null,
      bottom_depth_readings: 0,
      bottom_distance: null,
    });
  });

  describe('distance on bottom: a synthetic track of known length with USBL-like noise', () => {
    // A vehicle at 0.3 m/s flies legs of known length (2,500 m in all, with a 30 min stop on the
    // spot and a 10 min stop at the end); its position is fixed every 10 s with Gaussian noise
    // (sigma per axis) and, one fix in fifty, an outlier up to 300 m off.
    const random = (() => {
      let seed = 42;
      return () => {
        seed = (seed + 0x6d2b79f5) >>> 0;
        let t = seed;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    })();
    const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const metresPerLat = 111_195;
    const metresPerLon = metresPerLat * Math.cos((23.55 * Math.PI) / 180);
    const legs: Array<[dx: number, dy: number, stopSeconds: number]> = [
      [900, 0, 0],
      [0, 600, 1800],
      [-300, 0, 0],
      [0, -50, 0],
      [300, 0, 0],
      [0, -50, 0],
      [-300, 0, 600],
    ];
    const trueLength = legs.reduce((sum, [dx, dy]) => sum + Math.hypot(dx, dy), 0);

    function fixes(sigma: number) {
      const points: Array<{ ts: number; lat: number; lon: number }> = [];
      let x = 0;
      let y = 0;
      let t = 0;
      for (const [dx, dy, stop] of legs) {
        const seconds = Math.hypot(dx, dy) / 0.3;
        for (let s = 0; s < seconds + stop; s += 10) {
          const f = Math.min(1, s / seconds);
          let nx = normal() * sigma;
          let ny = normal() * sigma;
          if (random() < 0.02) {
            nx += (random() - 0.5) * 600;
            ny += (random() - 0.5) * 600;
          }
          points.push({
            ts: (t + s) * 1000,
            lat: 23.55 + (y + dy * f + ny) / metresPerLat,
            lon: -45.14 + (x + dx * f + nx) / metresPerLon,
          });
        }
        x += dx;
        y += dy;
        t += seconds + stop;
      }
      return points;
    }

    it.each([3, 5, 8])(
      'noise sigma %i m: within 3 per cent of the true 2,500 m, where the raw fixes add up to many times it',
      (sigma) => {
        expect(trueLength).toBe(2500);
        const points = fixes(sigma);
        let raw = 0;
        for (let i = 1; i < points.length; i++) raw += haversineMetres(points[i - 1]!, points[i]!);
        expect(raw).toBeGreaterThan(4 * trueLength);
        const folder = new TrackFolder({ from: 0, to: Infinity });
        for (const p of points) folder.point(p);
        const measured = folder.result().bottom_distance!;
        expect(Math.abs(measured - trueLength) / trueLength).toBeLessThan(0.03);
      },
    );

    it('a vehicle holding station for an hour travels nothing, however its fixes scatter', () => {
      const points = Array.from({ length: 360 }, (_, i) => ({
        ts: i * 10_000,
        lat: 23.55 + (normal() * 5) / metresPerLat,
        lon: -45.14 + (normal() * 5) / metresPerLon,
      }));
      expect(filteredTrackLength(points)).toBe(0);
    });

    it('names its method', () => {
      expect(distanceMethod).toBe(
        `filtered track: ${trackFilter.medianSeconds} s median, ${trackFilter.stepMetres} m steps`,
      );
    });
  });

  it('a frame grab belongs to a milestone only within 2 min of it, the nearest winning; otherwise none', () => {
    const at = Date.UTC(2023, 2, 14, 23, 45, 16);
    const grab = (offsetSeconds: number) => ({ ts: new Date(at + offsetSeconds * 1000).toISOString() });
    expect(milestoneFramegrabWindowText).toBe('within 2 min');
    // The picture taken 1 h 40 min later is not the milestone's.
    expect(milestoneFramegrab([grab(6000)], at)).toBeNull();
    expect(milestoneFramegrab([], at)).toBeNull();
    expect(milestoneFramegrab([grab(-121), grab(121)], at)).toBeNull();
    expect(milestoneFramegrab([grab(-120)], at)).toEqual(grab(-120));
    expect(milestoneFramegrab([grab(-90), grab(30), grab(100)], at)).toEqual(grab(30));
    expect(milestoneFramegrab([grab(-20), grab(30)], at)).toEqual(grab(-20));
  });

  it('the bottom span needs both milestones, in order', () => {
    const at = (m: Record<string, string | null>) =>
      bottomSpanOf({ start_ts: '', stop_ts: '', lowering_additional_meta: { milestones: m } }, settings);
    expect(at({ lowering_on_bottom: '2024-01-01T01:00:00Z', lowering_off_bottom: '2024-01-01T02:00:00Z' })).toEqual({
      from: Date.UTC(2024, 0, 1, 1),
      to: Date.UTC(2024, 0, 1, 2),
    });
    expect(at({ lowering_on_bottom: '2024-01-01T01:00:00Z', lowering_off_bottom: null })).toBeNull();
    expect(at({ lowering_on_bottom: '2024-01-01T03:00:00Z', lowering_off_bottom: '2024-01-01T02:00:00Z' })).toBeNull();
  });

  it('sums a cruise: stages added, deepest dive, mean weighted by readings, counts merged', () => {
    const a = figures({
      durations: [{ stage: 'Deck-to-Deck', seconds: 100 }],
      max_depth: 50,
      mean_depth: 10,
      depth_readings: 1,
      bottom_distance: 5,
      events_total: 2,
      events_by_category: { SAMPLE: 2 },
    });
    const b = figures({
      durations: [{ stage: 'Deck-to-Deck', seconds: 50 }],
      max_depth: 80,
      mean_depth: 40,
      depth_readings: 3,
      events_total: 1,
      events_by_category: { SAMPLE: 1 },
    });
    expect(sumFigures([a, b])).toMatchObject({
      durations: [{ stage: 'Deck-to-Deck', seconds: 150 }],
      max_depth: 80,
      mean_depth: 32.5,
      depth_readings: 4,
      bottom_distance: 5,
      events_total: 3,
      events_by_category: { SAMPLE: 3 },
    });
  });

  it('CSV: one row per figure, counts most first; a cruise adds the lowering id and the totals', () => {
    const f = figures({
      events_total: 3,
      events_by_category: { A: 1, B: 2 },
      samples_total: 1,
      samples_by_value: { '=X': 1 },
    });
    expect(metricRows(f).map((r) => r.metric)).toEqual([
      'max_depth',
      'mean_depth',
      'bottom_mean_depth',
      'bottom_distance',
      'events_total',
      'events_by_category.B',
      'events_by_category.A',
      'samples_total',
      'samples_by_value.=X',
      'framegrabs_total',
    ]);
    const lines = metricsCsv(f).split('\n');
    expect(lines[0]).toBe('"metric","value","unit"');
    expect(lines[1]).toBe('"max_depth",,"m"');
    expect(lines).toContain('"samples_by_value.=X",1,"count"');
    const l = {
      ...f,
      id: 'x',
      lowering_id: 'L1',
      start_ts: '',
      stop_ts: '',
      position_source: null,
      sample_values: [],
      distance_method: '',
    };
    const csv = cruiseMetricsCsv({ id: 'c', cruise_id: 'C', lowerings: [l as LoweringMetrics], totals: f }).split('\n');
    expect(csv[0]).toBe('"lowering_id","metric","value","unit"');
    expect(csv).toContain('"L1","events_total",3,"count"');
    expect(csv.at(-1)).toBe('"total","framegrabs_total",0,"count"');
  });
});
