import { describe, expect, it } from 'vitest';
import { clientSettingsSchema } from './schemas/client-settings.js';
import {
  bottomSpanOf,
  cruiseMetricsCsv,
  haversineMetres,
  metricRows,
  metricsCsv,
  sumFigures,
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

  it('folds depths and counts distance only between on bottom and off bottom', () => {
    const folder = new TrackFolder({ from: 10, to: 30 });
    for (const d of [100, 300, 200]) folder.depth({ depth: d });
    folder.point({ ts: 5, lat: 0, lon: 0 });
    folder.point({ ts: 10, lat: 0, lon: 1 });
    folder.point({ ts: 30, lat: 0, lon: 2 });
    folder.point({ ts: 31, lat: 0, lon: 3 });
    const r = folder.result();
    expect(r).toMatchObject({ max_depth: 300, mean_depth: 200, depth_readings: 3 });
    expect(r.bottom_distance).toBeCloseTo(haversineMetres({ lat: 0, lon: 1 }, { lat: 0, lon: 2 }), 6);
    expect(new TrackFolder(null).result()).toEqual({
      max_depth: null,
      mean_depth: null,
      depth_readings: 0,
      bottom_distance: null,
    });
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
    const l = { ...f, id: 'x', lowering_id: 'L1', start_ts: '', stop_ts: '', position_source: null, sample_values: [] };
    const csv = cruiseMetricsCsv({ id: 'c', cruise_id: 'C', lowerings: [l as LoweringMetrics], totals: f }).split('\n');
    expect(csv[0]).toBe('"lowering_id","metric","value","unit"');
    expect(csv).toContain('"L1","events_total",3,"count"');
    expect(csv.at(-1)).toBe('"total","framegrabs_total",0,"count"');
  });
});
