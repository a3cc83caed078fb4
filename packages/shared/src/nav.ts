/**
 * Positions from aux data: one rule for tracklines, event
 * markers, the depth chart, the milestone calculators and the GIS exports, on both sides.
 *
 * A record of a position source carries `latitude` and `longitude` (and usually `depth`) in its
 * data_array. The first source in the configured order that has any record for the lowering is
 * used, even when all of its points are dropped. Points where either coordinate is exactly 0 are
 * dropped from the track (a nav feed's "no fix"), but their depth still counts for the chart.
 */

interface AuxDatum {
  data_name: string;
  data_value: string | number;
}

interface AuxRecord {
  data_source: string;
  data_array: readonly AuxDatum[];
}

/** What one aux record says about where the vehicle was. */
export interface AuxPosition {
  /** null when the record has no usable latitude/longitude, or either is exactly 0. */
  lat: number | null;
  lon: number | null;
  /** null when the record has no numeric depth. */
  depth: number | null;
}

/** The outcome of reading one record: a position, or the reason it could not be read. */
export type PositionReading = { ok: true; position: AuxPosition } | { ok: false; problem: 'Problem parsing' };

function numberOf(items: readonly AuxDatum[], name: string): number | null {
  const item = items.find((d) => d.data_name === name);
  if (item === undefined) return null;
  const raw = typeof item.data_value === 'number' ? item.data_value : item.data_value.trim();
  if (raw === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

/**
 * Reads one position-source record. A record lacking a numeric latitude or longitude is a
 * "Problem parsing" (the client logs it and skips the point); zero coordinates are a reading
 * with no position (dropped from the track, depth kept).
 */
export function readAuxPosition(record: Pick<AuxRecord, 'data_array'>): PositionReading {
  const lat = numberOf(record.data_array, 'latitude');
  const lon = numberOf(record.data_array, 'longitude');
  if (lat === null || lon === null || lat < -90 || lat > 90 || lon < -180 || lon > 180) {
    return { ok: false, problem: 'Problem parsing' };
  }
  const depth = numberOf(record.data_array, 'depth');
  if (lat === 0 || lon === 0) return { ok: true, position: { lat: null, lon: null, depth } };
  return { ok: true, position: { lat, lon, depth } };
}

/**
 * The source to use among the configured ones: the first that appears in `available` (the data
 * sources that have at least one record for the lowering or event). null when none does.
 */
export function choosePositionSource(configured: readonly string[], available: Iterable<string>): string | null {
  const present = new Set(available);
  return configured.find((source) => present.has(source)) ?? null;
}

/** The record of an event's aux data that its position comes from, per the configured order. */
export function positionRecordOf<R extends AuxRecord>(auxData: readonly R[], configured: readonly string[]): R | null {
  const source = choosePositionSource(
    configured,
    auxData.map((a) => a.data_source),
  );
  return source === null ? null : (auxData.find((a) => a.data_source === source) ?? null);
}

/** One point of a dive's track. */
export interface TrackPoint {
  /** epoch ms of the event the record belongs to */
  ts: number;
  eventId: string;
  lat: number;
  lon: number;
  depth: number | null;
}

/** One point of a dive's depth profile (kept even when the position is zero). */
export interface DepthPoint {
  ts: number;
  eventId: string;
  depth: number;
}

export interface DiveTrack {
  source: string | null;
  points: TrackPoint[];
  depths: DepthPoint[];
  /** records of the chosen source that could not be read ("Problem parsing") */
  problems: Array<{ eventId: string; problem: 'Problem parsing' }>;
}

/** The axis-aligned box around a track, in the Sealog lowering `bounding_box` order [N, E, S, W]. */
export interface BoundingBox {
  north: number;
  east: number;
  south: number;
  west: number;
}

/**
 * Builds the track and depth profile of a dive from its events' aux data (each event at most one
 * record per source), in event-time order as given. Only the first configured source that has any
 * record is used.
 */
export function buildDiveTrack(
  events: ReadonlyArray<{ id: string; ts: number; aux_data: readonly AuxRecord[] }>,
  configured: readonly string[],
): DiveTrack {
  const available = new Set<string>();
  for (const e of events) for (const a of e.aux_data) available.add(a.data_source);
  const source = choosePositionSource(configured, available);
  const track: DiveTrack = { source, points: [], depths: [], problems: [] };
  if (source === null) return track;
  for (const e of events) {
    const record = e.aux_data.find((a) => a.data_source === source);
    if (!record) continue;
    const reading = readAuxPosition(record);
    if (!reading.ok) {
      track.problems.push({ eventId: e.id, problem: reading.problem });
      continue;
    }
    const { lat, lon, depth } = reading.position;
    if (depth !== null) track.depths.push({ ts: e.ts, eventId: e.id, depth });
    if (lat !== null && lon !== null) track.points.push({ ts: e.ts, eventId: e.id, lat, lon, depth });
  }
  return track;
}

/** The deepest depth of a profile (the max-depth calculator), or null with no depth at all. */
export function maxDepthOf(depths: readonly DepthPoint[]): number | null {
  let max: number | null = null;
  for (const d of depths) if (max === null || d.depth > max) max = d.depth;
  return max;
}

/** The box enclosing every track point (the bounding-box calculator), or null for an empty track. */
export function boundingBoxOf(points: ReadonlyArray<{ lat: number; lon: number }>): BoundingBox | null {
  if (points.length === 0) return null;
  let north = -90;
  let south = 90;
  let east = -180;
  let west = 180;
  for (const p of points) {
    if (p.lat > north) north = p.lat;
    if (p.lat < south) south = p.lat;
    if (p.lon > east) east = p.lon;
    if (p.lon < west) west = p.lon;
  }
  return { north, east, south, west };
}

/**
 * A dive track on the wire (GET tracks/bylowering/{id}, a Bathylog addition): one row per event
 * whose record of the chosen source was readable, in event-time order, as parallel columns (a
 * 20,000-point dive is a fraction of the size and parse time of the events with their aux data).
 * `lat`/`lon` are null where the point was dropped (zero fix) and `depth` where there is none;
 * `problems` lists the events whose record could not be read ("Problem parsing").
 */
export interface TrackColumns {
  source: string | null;
  eventIds: string[];
  ts: number[];
  lat: Array<number | null>;
  lon: Array<number | null>;
  depth: Array<number | null>;
  problems: string[];
}

/** `track` as columns, its rows in the order of `eventIds` (the events it was built from). */
export function trackColumnsOf(track: DiveTrack, eventIds: Iterable<string>): TrackColumns {
  const points = new Map(track.points.map((p) => [p.eventId, p]));
  const depths = new Map(track.depths.map((d) => [d.eventId, d]));
  const out: TrackColumns = {
    source: track.source,
    eventIds: [],
    ts: [],
    lat: [],
    lon: [],
    depth: [],
    problems: track.problems.map((p) => p.eventId),
  };
  for (const id of eventIds) {
    const point = points.get(id);
    const depth = depths.get(id);
    if (!point && !depth) continue;
    out.eventIds.push(id);
    out.ts.push((point ?? depth)!.ts);
    out.lat.push(point ? point.lat : null);
    out.lon.push(point ? point.lon : null);
    out.depth.push(point ? point.depth : depth!.depth);
  }
  return out;
}

/** The track the columns describe (the inverse of `trackColumnsOf`). */
export function diveTrackOf(columns: TrackColumns): DiveTrack {
  const track: DiveTrack = {
    source: columns.source,
    points: [],
    depths: [],
    problems: columns.problems.map((eventId) => ({ eventId, problem: 'Problem parsing' as const })),
  };
  for (let i = 0; i < columns.eventIds.length; i++) {
    const eventId = columns.eventIds[i]!;
    const ts = columns.ts[i]!;
    const lat = columns.lat[i] ?? null;
    const lon = columns.lon[i] ?? null;
    const depth = columns.depth[i] ?? null;
    if (depth !== null) track.depths.push({ ts, eventId, depth });
    if (lat !== null && lon !== null) track.points.push({ ts, eventId, lat, lon, depth });
  }
  return track;
}
