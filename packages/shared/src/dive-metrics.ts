import { z } from 'zod/mini';
import { csvDocument } from './csv.js';
import type { DepthPoint, TrackPoint } from './nav.js';
import { phaseDurations, type LoweringTimes, type MilestoneSettings } from './rules/milestones.js';

/**
 * Dive metrics (docs/review-and-gis.md#dive-metrics): figures of a lowering computed from its
 * milestones and its data, one rule on both ends. The server fills the counts (SQL) and passes the
 * track through `trackMetrics`; the client shows them and writes nothing of its own.
 */

const countsSchema = z.record(z.string(), z.number());

export const stageDurationSchema = z.object({
  /** The phase name as the lowering card shows it (Deck-to-Deck, Descent, On Bottom ...). */
  stage: z.string(),
  seconds: z.number(),
});
export type StageDuration = z.infer<typeof stageDurationSchema>;

/** The figures of one dive (no identity): what a cruise sums too. */
export const diveFiguresSchema = z.object({
  durations: z.array(stageDurationSchema),
  /** metres, the deepest navigation depth reading (not the record's stats); null without depth data */
  max_depth: z.nullable(z.number()),
  /** metres, the mean of every navigation depth reading of the whole dive (surface and descent too) */
  mean_depth: z.nullable(z.number()),
  /** how many depth readings the depth figures come from */
  depth_readings: z.number(),
  /** metres, the mean of the depth readings between the on-bottom and off-bottom milestones */
  bottom_mean_depth: z.nullable(z.number()),
  /** how many depth readings the on-bottom mean comes from */
  bottom_depth_readings: z.number(),
  /**
   * metres travelled between the on-bottom and off-bottom milestones along the filtered track
   * (`trackFilter`); null when either milestone is unset
   */
  bottom_distance: z.nullable(z.number()),
  events_total: z.number(),
  events_by_category: countsSchema,
  events_by_author: countsSchema,
  samples_total: z.number(),
  samples_by_value: countsSchema,
  framegrabs_total: z.number(),
  framegrabs_by_camera: countsSchema,
});
export type DiveFigures = z.infer<typeof diveFiguresSchema>;

/** GET /lowerings/{id}/metrics */
export const loweringMetricsSchema = z.extend(diveFiguresSchema, {
  id: z.string(),
  lowering_id: z.string(),
  start_ts: z.string(),
  stop_ts: z.string(),
  /** the position source the depths and the distance come from (null: none has records) */
  position_source: z.nullable(z.string()),
  /** the configured sample event values (BATHYLOG_SAMPLE_EVENT_VALUES) */
  sample_values: z.array(z.string()),
  /** how `bottom_distance` is measured, in words (`distanceMethod`) */
  distance_method: z.string(),
});
export type LoweringMetrics = z.infer<typeof loweringMetricsSchema>;

/** GET /cruises/{id}/metrics: one row per lowering the caller may open, and their sums. */
export const cruiseMetricsSchema = z.object({
  id: z.string(),
  cruise_id: z.string(),
  lowerings: z.array(loweringMetricsSchema),
  totals: diveFiguresSchema,
});
export type CruiseMetrics = z.infer<typeof cruiseMetricsSchema>;

export const metricsQuerySchema = z.object({ format: z.optional(z.enum(['json', 'csv'])) });

const earthRadiusM = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres between two positions (haversine, mean earth radius). */
export function haversineMetres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * earthRadiusM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * How the distance on bottom is measured (docs/review-and-gis.md#distance-on-bottom). Raw USBL
 * fixes scatter by metres every few seconds; summing them adds that scatter as if the vehicle had
 * travelled it (S0492: 29.5 km of raw steps for a 2.6 km transect). So the track is filtered first:
 * each fix is replaced by the median latitude and longitude of the fixes within
 * `medianSeconds` centred on it (an outlier among them moves nothing), and the filtered track is
 * walked in steps of at least `stepMetres`: a position counts once it is that far from the last
 * one counted, so a vehicle holding station adds nothing however its fixes wander.
 */
export const trackFilter = { medianSeconds: 120, stepMetres: 15 } as const;

/** The method beside the figure: "filtered track: 120 s median, 15 m steps". */
export const distanceMethod = `filtered track: ${trackFilter.medianSeconds} s median, ${trackFilter.stepMetres} m steps`;

function median(values: number[]): number {
  values.sort((a, b) => a - b);
  const mid = values.length >> 1;
  return values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

/** The track after the running median of `trackFilter` (points in time order). */
export function medianFilteredTrack<P extends { ts: number; lat: number; lon: number }>(
  points: readonly P[],
  windowMs = trackFilter.medianSeconds * 1000,
): Array<{ ts: number; lat: number; lon: number }> {
  const half = windowMs / 2;
  const out: Array<{ ts: number; lat: number; lon: number }> = [];
  let lo = 0;
  let hi = 0;
  for (const p of points) {
    while (points[lo]!.ts < p.ts - half) lo += 1;
    while (hi < points.length && points[hi]!.ts <= p.ts + half) hi += 1;
    const window = points.slice(lo, hi);
    out.push({ ts: p.ts, lat: median(window.map((q) => q.lat)), lon: median(window.map((q) => q.lon)) });
  }
  return out;
}

/**
 * The length in metres of a track (points in time order) by the `trackFilter` method: the running
 * median, then steps of at least `stepMetres`.
 */
export function filteredTrackLength(
  points: ReadonlyArray<{ ts: number; lat: number; lon: number }>,
  filter: { medianSeconds: number; stepMetres: number } = trackFilter,
): number {
  const smooth = medianFilteredTrack(points, filter.medianSeconds * 1000);
  let length = 0;
  let last = smooth[0];
  for (const p of smooth) {
    const d = haversineMetres(last!, p);
    if (d < filter.stepMetres) continue;
    length += d;
    last = p;
  }
  return length;
}

/** Folds a dive's track into its depth and distance figures, one reading at a time (time order). */
export class TrackFolder {
  private max: number | null = null;
  private sum = 0;
  private n = 0;
  private bottomSum = 0;
  private bottomN = 0;
  private readonly bottomPoints: Array<{ ts: number; lat: number; lon: number }> = [];

  constructor(
    /** epoch ms of the on-bottom and off-bottom milestones; null when unset */
    private readonly bottom: { from: number; to: number } | null,
  ) {}

  private onBottom(ts: number): boolean {
    return this.bottom !== null && ts >= this.bottom.from && ts <= this.bottom.to;
  }

  depth(d: Pick<DepthPoint, 'ts' | 'depth'>): void {
    if (this.max === null || d.depth > this.max) this.max = d.depth;
    this.sum += d.depth;
    this.n += 1;
    if (this.onBottom(d.ts)) {
      this.bottomSum += d.depth;
      this.bottomN += 1;
    }
  }

  point(p: Pick<TrackPoint, 'ts' | 'lat' | 'lon'>): void {
    if (this.onBottom(p.ts)) this.bottomPoints.push({ ts: p.ts, lat: p.lat, lon: p.lon });
  }

  result(): Pick<
    DiveFigures,
    'max_depth' | 'mean_depth' | 'depth_readings' | 'bottom_mean_depth' | 'bottom_depth_readings' | 'bottom_distance'
  > {
    return {
      max_depth: this.max,
      mean_depth: this.n === 0 ? null : this.sum / this.n,
      depth_readings: this.n,
      bottom_mean_depth: this.bottomN === 0 ? null : this.bottomSum / this.bottomN,
      bottom_depth_readings: this.bottomN,
      bottom_distance: this.bottom ? filteredTrackLength(this.bottomPoints) : null,
    };
  }
}

/**
 * A frame grab belongs to a milestone only when it was taken within this many seconds of it, either
 * side; the nearest one wins, and a milestone without one has none (docs/review-and-gis.md#dive-report).
 */
export const milestoneFramegrabWindowSeconds = 120;

/** The window's words, as the report states it: "within 2 min". */
export const milestoneFramegrabWindowText = `within ${milestoneFramegrabWindowSeconds / 60} min`;

/** The [from, to] epoch ms within which a frame grab may belong to a milestone at `ts`. */
export function milestoneFramegrabWindow(ts: number): { from: number; to: number } {
  const half = milestoneFramegrabWindowSeconds * 1000;
  return { from: ts - half, to: ts + half };
}

/** The event (with an image) taken nearest the milestone at `ts` within its window; null when none. */
export function milestoneFramegrab<E extends { ts: string }>(events: readonly E[], ts: number): E | null {
  const { from, to } = milestoneFramegrabWindow(ts);
  let best: E | null = null;
  let bestGap = Infinity;
  for (const e of events) {
    const t = Date.parse(e.ts);
    if (!(t >= from && t <= to)) continue;
    const gap = Math.abs(t - ts);
    if (gap < bestGap) {
      best = e;
      bestGap = gap;
    }
  }
  return best;
}

/** The on-bottom span of a lowering from its configured milestones (descent[1] → ascent[0]). */
export function bottomSpanOf(
  lowering: LoweringTimes,
  settings: MilestoneSettings,
): { from: number; to: number } | null {
  const stored = lowering.lowering_additional_meta?.milestones ?? {};
  const from = stored[settings.descent[1]];
  const to = stored[settings.ascent[0]];
  if (!from || !to) return null;
  const a = Date.parse(from);
  const b = Date.parse(to);
  return Number.isFinite(a) && Number.isFinite(b) && b >= a ? { from: a, to: b } : null;
}

/** The stage durations of a lowering in seconds (the lowering card's phases). */
export function stageDurationsOf(lowering: LoweringTimes, settings: MilestoneSettings): StageDuration[] {
  return phaseDurations(lowering, settings).map((p) => ({ stage: p.phase, seconds: p.ms / 1000 }));
}

/** Samples: the category counts of the configured sample values. */
export function samplesOf(byCategory: Record<string, number>, sampleValues: readonly string[]) {
  const byValue: Record<string, number> = {};
  let total = 0;
  for (const v of sampleValues) {
    const n = byCategory[v] ?? 0;
    if (n > 0) byValue[v] = n;
    total += n;
  }
  return { samples_total: total, samples_by_value: byValue };
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

/**
 * A cruise's sums: durations added per stage, the deepest depth, the means over every depth
 * reading of the dives and over their on-bottom readings (weighted by their readings), distances
 * and counts added.
 */
export function sumFigures(dives: readonly DiveFigures[]): DiveFigures {
  const out: DiveFigures = {
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
  };
  const stages = new Map<string, number>();
  let depthSum = 0;
  let bottomDepthSum = 0;
  for (const d of dives) {
    for (const s of d.durations) stages.set(s.stage, (stages.get(s.stage) ?? 0) + s.seconds);
    if (d.max_depth !== null && (out.max_depth === null || d.max_depth > out.max_depth)) out.max_depth = d.max_depth;
    if (d.mean_depth !== null) depthSum += d.mean_depth * d.depth_readings;
    out.depth_readings += d.depth_readings;
    if (d.bottom_mean_depth !== null) bottomDepthSum += d.bottom_mean_depth * d.bottom_depth_readings;
    out.bottom_depth_readings += d.bottom_depth_readings;
    if (d.bottom_distance !== null) out.bottom_distance = (out.bottom_distance ?? 0) + d.bottom_distance;
    out.events_total += d.events_total;
    addCounts(out.events_by_category, d.events_by_category);
    addCounts(out.events_by_author, d.events_by_author);
    out.samples_total += d.samples_total;
    addCounts(out.samples_by_value, d.samples_by_value);
    out.framegrabs_total += d.framegrabs_total;
    addCounts(out.framegrabs_by_camera, d.framegrabs_by_camera);
  }
  out.durations = [...stages].map(([stage, seconds]) => ({ stage, seconds }));
  out.mean_depth = out.depth_readings > 0 ? depthSum / out.depth_readings : null;
  out.bottom_mean_depth = out.bottom_depth_readings > 0 ? bottomDepthSum / out.bottom_depth_readings : null;
  return out;
}

/** One figure as a row of the CSV and of the full metrics table. */
export interface MetricRow {
  metric: string;
  value: number | null;
  unit: string;
}

const sortedCounts = (counts: Record<string, number>) =>
  Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

/**
 * The figures as rows, in the order the table and the CSV show them: `duration.<stage>` (s),
 * `max_depth`, `mean_depth`, `bottom_mean_depth`, `bottom_distance` (m), then the counts, `<group>.<name>` per name
 * (most first).
 */
export function metricRows(f: DiveFigures): MetricRow[] {
  const rows: MetricRow[] = f.durations.map((d) => ({ metric: `duration.${d.stage}`, value: d.seconds, unit: 's' }));
  rows.push(
    { metric: 'max_depth', value: f.max_depth, unit: 'm' },
    { metric: 'mean_depth', value: f.mean_depth, unit: 'm' },
    { metric: 'bottom_mean_depth', value: f.bottom_mean_depth, unit: 'm' },
    { metric: 'bottom_distance', value: f.bottom_distance, unit: 'm' },
    { metric: 'events_total', value: f.events_total, unit: 'count' },
  );
  for (const [k, v] of sortedCounts(f.events_by_category)) {
    rows.push({ metric: `events_by_category.${k}`, value: v, unit: 'count' });
  }
  for (const [k, v] of sortedCounts(f.events_by_author)) {
    rows.push({ metric: `events_by_author.${k}`, value: v, unit: 'count' });
  }
  rows.push({ metric: 'samples_total', value: f.samples_total, unit: 'count' });
  for (const [k, v] of sortedCounts(f.samples_by_value)) {
    rows.push({ metric: `samples_by_value.${k}`, value: v, unit: 'count' });
  }
  rows.push({ metric: 'framegrabs_total', value: f.framegrabs_total, unit: 'count' });
  for (const [k, v] of sortedCounts(f.framegrabs_by_camera)) {
    rows.push({ metric: `framegrabs_by_camera.${k}`, value: v, unit: 'count' });
  }
  return rows;
}

/** The CSV of `metricRows`: header `metric,value,unit`, one row per figure. */
export function metricsCsv(f: DiveFigures): string {
  return csvDocument(['metric', 'value', 'unit'], metricRows(f) as unknown as Array<Record<string, unknown>>);
}

/** "12.3 km" / "850 m" for a distance in metres; '' for null. */
export function formatDistance(m: number | null): string {
  if (m === null) return '';
  return m >= 1000 ? `${(m / 1000).toFixed(2)} km` : `${Math.round(m)} m`;
}

/** "2011.5 m" for a depth in metres; '' for null. */
export function formatDepth(m: number | null): string {
  return m === null ? '' : `${m.toFixed(1)} m`;
}

/** The API path (under /sealog-server/api/v1) of a lowering's or cruise's metrics. */
export function metricsPath(kind: 'lowering' | 'cruise', id: string, format?: 'csv'): string {
  return `${kind}s/${id}/metrics${format ? '?format=csv' : ''}`;
}

/**
 * The CSV of a cruise's metrics: header `lowering_id,metric,value,unit`, each lowering's rows,
 * then the sums with lowering_id `total`.
 */
export function cruiseMetricsCsv(m: CruiseMetrics): string {
  const rows: Array<Record<string, unknown>> = [];
  for (const l of m.lowerings) for (const r of metricRows(l)) rows.push({ lowering_id: l.lowering_id, ...r });
  for (const r of metricRows(m.totals)) rows.push({ lowering_id: 'total', ...r });
  return csvDocument(['lowering_id', 'metric', 'value', 'unit'], rows);
}
