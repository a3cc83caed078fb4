import { gaussian, seededRandom, Wander } from './demo-random.js';

/**
 * A generated, deterministic vehicle track for the demo dive (the real navigation is not in the
 * demo data; its aux data holds only the ship's position in port): at the surface until
 * descending, down to near the maximum depth by on-bottom, a smooth survey path across the dive's
 * bounding box a few metres above the seafloor, and back up after off-bottom to the surface by
 * on-surface. Each fix carries USBL-like noise (a few metres, now and then an outlier), as real
 * vehicle navigation does, so the dive figures see what a filter must cope with.
 */

/** Lowering `stats.bounding_box` is [north, east, south, west] in decimal degrees. */
export interface BoundingBox {
  north: number;
  east: number;
  south: number;
  west: number;
}

export function boundingBoxFromStats(box: readonly number[]): BoundingBox {
  const [north, east, south, west] = box as [number, number, number, number];
  if (![north, east, south, west].every(Number.isFinite) || north <= south || east <= west) {
    throw new Error(`bad bounding box ${JSON.stringify(box)}: expected [north, east, south, west]`);
  }
  return { north, east, south, west };
}

/** Epoch-ms times of the dive's phases. */
export interface DiveTimeline {
  start: number;
  descending: number;
  onBottom: number;
  offBottom: number;
  onSurface: number;
  stop: number;
}

export interface NavFix {
  latitude: number;
  longitude: number;
  /** metres, positive down */
  depth: number;
  /** degrees true, 0..360 */
  heading: number;
  /** metres above the seafloor */
  altitude: number;
}

const milestoneLabels: Record<'onBottom' | 'offBottom' | 'onSurface', string> = {
  onBottom: 'on bottom',
  offBottom: 'off bottom',
  onSurface: 'on surface',
};

interface TimelineEvent {
  ts: number;
  event_options: Array<{ event_option_name: string; event_option_value: string }>;
}

/**
 * The dive's phases from the lowering's milestones, corrected by the milestone events the pilots
 * logged. In S0492 the lowering record says off-bottom at 01:39 while the "Off bottom" event (and
 * six more hours of samples and photos on the seafloor) say 07:35; the events win.
 */
export function diveTimeline(
  lowering: { start_ts: number; stop_ts: number; milestones: Record<string, string | null | undefined> },
  events: readonly TimelineEvent[],
): DiveTimeline {
  const { start_ts: start, stop_ts: stop } = lowering;
  const fromRecord = (name: string): number | null => {
    const v = lowering.milestones[name];
    const t = v ? Date.parse(v) : NaN;
    return Number.isFinite(t) && t >= start && t <= stop ? t : null;
  };
  const fromEvents = (label: string): number | null => {
    for (const e of events) {
      const o = e.event_options.find((opt) => opt.event_option_name.toLowerCase() === 'milestone');
      if (o && o.event_option_value.trim().toLowerCase() === label && e.ts >= start && e.ts <= stop) return e.ts;
    }
    return null;
  };
  const span = stop - start;
  const descending = fromRecord('lowering_descending') ?? start + span * 0.05;
  const pick = (key: keyof typeof milestoneLabels, record: string, fraction: number) =>
    fromEvents(milestoneLabels[key]) ?? fromRecord(record) ?? start + span * fraction;
  const timeline = {
    start,
    descending,
    onBottom: pick('onBottom', 'lowering_on_bottom', 0.2),
    offBottom: pick('offBottom', 'lowering_off_bottom', 0.8),
    onSurface: pick('onSurface', 'lowering_on_surface', 0.95),
    stop,
  };
  const order = [
    timeline.start,
    timeline.descending,
    timeline.onBottom,
    timeline.offBottom,
    timeline.onSurface,
    timeline.stop,
  ];
  const sane = order.every((t, i) => i === 0 || t > order[i - 1]!);
  if (sane) return timeline;
  // Milestones out of order: fall back to fixed fractions of the dive.
  return {
    start,
    descending: start + span * 0.05,
    onBottom: start + span * 0.2,
    offBottom: start + span * 0.8,
    onSurface: start + span * 0.95,
    stop,
  };
}

const metresPerDegreeLat = 111_132;
const stepMs = 5_000;

/**
 * The true length of the path flown on the bottom: S0492's dive plan gives 2.6 km from the launch
 * point to its last waypoint.
 */
export const plannedBottomPath = 2_600;

/** USBL fix noise: a few metres of scatter, and about one fix in 150 thrown tens of metres off. */
const fixNoiseSigma = 3;
const outlierChance = 1 / 150;
const outlierRange = [25, 60] as const;

interface Point {
  x: number;
  y: number;
}

/**
 * A survey path through `corners` (metres in the box), weaving gently either side of each leg
 * (the pilots keep visual contact with the scarp) so its whole length is `length` when the box
 * allows; returns the position at fraction `f` of that length, travelled at an even pace.
 */
function surveyPath(corners: readonly Point[], length: number, lo: Point, hi: Point): (f: number) => Point {
  const wavelength = 180;
  const base: Array<Point & { nx: number; ny: number; s: number }> = [];
  let s = 0;
  for (let i = 1; i < corners.length; i++) {
    const a = corners[i - 1]!;
    const b = corners[i]!;
    const leg = Math.hypot(b.x - a.x, b.y - a.y);
    const n = Math.max(1, Math.ceil(leg));
    for (let k = i === 1 ? 0 : 1; k <= n; k++) {
      const f = k / n;
      base.push({ x: lerp(a.x, b.x, f), y: lerp(a.y, b.y, f), nx: -(b.y - a.y) / leg, ny: (b.x - a.x) / leg, s });
      s += leg / n;
    }
  }
  const weave = (amplitude: number) => {
    const points = base.map((p) => {
      // Taper the weave to nothing at the start and the end, so the path begins and ends on them.
      const edge = Math.min(1, p.s / wavelength, (s - p.s) / wavelength);
      const offset = amplitude * edge * Math.sin((2 * Math.PI * p.s) / wavelength);
      return { x: clamp(p.x + p.nx * offset, lo.x, hi.x), y: clamp(p.y + p.ny * offset, lo.y, hi.y) };
    });
    const along = [0];
    for (let i = 1; i < points.length; i++) {
      along.push(along[i - 1]! + Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.y - points[i - 1]!.y));
    }
    return { points, along, total: along[along.length - 1]! };
  };
  // The weave's amplitude that gives the wanted length (bisection; the length grows with it).
  let low = 0;
  let high = 0;
  let path = weave(0);
  if (path.total < length) {
    high = 200;
    for (let i = 0; i < 40; i++) {
      const mid = (low + high) / 2;
      if (weave(mid).total < length) low = mid;
      else high = mid;
    }
    path = weave(low);
  }
  const { points, along, total } = path;
  return (f: number) => {
    const target = clamp(f, 0, 1) * total;
    let i = 0;
    let j = along.length - 1;
    while (j - i > 1) {
      const m = (i + j) >> 1;
      if (along[m]! <= target) i = m;
      else j = m;
    }
    const span = along[j]! - along[i]! || 1;
    const g = clamp((target - along[i]!) / span, 0, 1);
    return { x: lerp(points[i]!.x, points[j]!.x, g), y: lerp(points[i]!.y, points[j]!.y, g) };
  };
}

interface GridPoint {
  x: number;
  y: number;
  depth: number;
  seafloor: number;
  heading: number;
  /** the USBL fix's error, in metres east and north */
  noiseX: number;
  noiseY: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const lerp = (a: number, b: number, f: number) => a + (b - a) * f;

export class DiveTrack {
  private readonly grid: GridPoint[] = [];
  private readonly metresPerDegreeLon: number;
  private readonly width: number;
  private readonly height: number;

  constructor(
    readonly timeline: DiveTimeline,
    readonly box: BoundingBox,
    readonly maxDepth: number,
    seed: string,
  ) {
    const midLat = (box.north + box.south) / 2;
    this.metresPerDegreeLon = 111_320 * Math.cos((midLat * Math.PI) / 180);
    this.width = (box.east - box.west) * this.metresPerDegreeLon;
    this.height = (box.north - box.south) * metresPerDegreeLat;
    this.build(seed);
  }

  private build(seed: string): void {
    const { timeline: tl, width: W, height: H, maxDepth } = this;
    const normal = gaussian(seededRandom(seed));
    // A stream of its own, so the fix noise leaves the depths and the seafloor as they were.
    const usbl = seededRandom(`${seed}/usbl`);
    const usblNormal = gaussian(usbl);
    const margin = Math.min(15, W * 0.05, H * 0.05);
    // Launch near the west edge at the base of the scarp, climb east-north-east to the summit,
    // then south along the top and down the southern scarp, as S0492's plan runs.
    const launch = { x: W * 0.1, y: H * 0.45 };
    const transect = surveyPath(
      [launch, { x: W * 0.9, y: H * 0.82 }, { x: W * 0.94, y: H * 0.22 }, { x: W * 0.86, y: H * 0.1 }],
      plannedBottomPath,
      { x: margin, y: margin },
      { x: W - margin, y: H - margin },
    );
    const end = transect(1);
    const wanderX = new Wander(normal, 8, 300);
    const wanderY = new Wander(normal, 8, 300);
    const seafloorWander = new Wander(normal, 9, 900);
    const altitudeWander = new Wander(normal, 1, 90);
    const swell = new Wander(normal, 0.35, 15);
    const seafloorAt = () => clamp(maxDepth - 16 + seafloorWander.value, maxDepth - 40, maxDepth - 0.5);
    const altitudeAt = () => clamp(3 + altitudeWander.value, 1, 6);
    const surfaceAt = () => clamp(0.5 + swell.value, 0, 1.5);

    const steps = Math.max(1, Math.ceil((tl.stop - tl.start) / stepMs));
    let bottomStart = { seafloor: maxDepth - 16, depth: maxDepth - 19 };
    let bottomEnd: { depth: number } | null = null;
    for (let i = 0; i <= steps; i++) {
      const t = tl.start + i * stepMs;
      const dt = stepMs / 1000;
      const onBottom = t >= tl.onBottom && t < tl.offBottom;
      // On the bottom the vehicle flies the survey path itself (the wander fades out); the ship
      // holds station above while the vehicle is at the surface or in the water column.
      wanderX.sigma = wanderY.sigma = onBottom ? 0 : t < tl.descending || t >= tl.onSurface ? 6 : 15;
      const ox = wanderX.step(dt);
      const oy = wanderY.step(dt);
      seafloorWander.step(dt);
      altitudeWander.step(dt);
      swell.step(dt);
      const anchor =
        t < tl.onBottom ? launch : t >= tl.offBottom ? end : transect((t - tl.onBottom) / (tl.offBottom - tl.onBottom));
      const x = clamp(anchor.x + ox, margin, W - margin);
      const y = clamp(anchor.y + oy, margin, H - margin);
      const seafloor = seafloorAt();
      let depth: number;
      if (t < tl.descending || t >= tl.onSurface) {
        depth = surfaceAt();
      } else if (t < tl.onBottom) {
        const f = (t - tl.descending) / (tl.onBottom - tl.descending);
        // Fast at first, slowing as the pilots approach the bottom.
        const target = maxDepth - 16 - 3;
        depth = lerp(surfaceAt(), target, 1 - Math.pow(1 - f, 1.5));
        bottomStart = { seafloor, depth: target };
      } else if (onBottom) {
        depth = seafloor - altitudeAt();
        // Blend the first minute so the touchdown has no step.
        const since = t - tl.onBottom;
        if (since < 60_000) depth = lerp(bottomStart.depth, depth, since / 60_000);
        bottomEnd = { depth };
      } else {
        const f = (t - tl.offBottom) / (tl.onSurface - tl.offBottom);
        depth = lerp((bottomEnd ?? bottomStart).depth, surfaceAt(), Math.pow(f, 1.15));
      }
      depth = clamp(depth, 0, seafloor - 0.5);
      let noiseX = fixNoiseSigma * usblNormal();
      let noiseY = fixNoiseSigma * usblNormal();
      if (usbl() < outlierChance) {
        const angle = 2 * Math.PI * usbl();
        const jump = lerp(outlierRange[0], outlierRange[1], usbl());
        noiseX += jump * Math.sin(angle);
        noiseY += jump * Math.cos(angle);
      }
      this.grid.push({ x, y, depth, seafloor, heading: 0, noiseX, noiseY });
    }
    // Heading: the direction of travel over ±90 s when moving, otherwise a slow drift; then
    // turned at most 3°/s, as a vehicle turns.
    const half = 18;
    let previous = 90;
    for (let i = 0; i < this.grid.length; i++) {
      const lo = Math.max(0, i - half);
      const hi = Math.min(this.grid.length - 1, i + half);
      const dx = this.grid[hi]!.x - this.grid[lo]!.x;
      const dy = this.grid[hi]!.y - this.grid[lo]!.y;
      const speed = Math.hypot(dx, dy) / (((hi - lo) * stepMs) / 1000 || 1);
      const wanted = speed > 0.03 ? (Math.atan2(dx, dy) * 180) / Math.PI : previous + normal() * 0.8;
      let turn = ((((wanted - previous) % 360) + 540) % 360) - 180;
      const maxTurn = (3 * stepMs) / 1000;
      turn = clamp(turn, -maxTurn, maxTurn);
      const heading = (((previous + turn) % 360) + 360) % 360;
      this.grid[i]!.heading = heading;
      previous = heading;
    }
  }

  /** The fix at `ts` (clamped to the dive), interpolated between grid points. */
  at(ts: number): NavFix {
    const { timeline: tl, box, grid } = this;
    const pos = clamp((ts - tl.start) / stepMs, 0, grid.length - 1);
    const i = Math.min(grid.length - 2, Math.floor(pos));
    const a = grid[Math.max(0, i)]!;
    const b = grid[Math.max(0, Math.min(grid.length - 1, i + 1))]!;
    const f = grid.length < 2 ? 0 : pos - i;
    let dh = b.heading - a.heading;
    if (dh > 180) dh -= 360;
    if (dh < -180) dh += 360;
    const depth = lerp(a.depth, b.depth, f);
    const seafloor = lerp(a.seafloor, b.seafloor, f);
    // Keep the last printed digit inside the box.
    const inset = 2e-6;
    return {
      latitude: clamp(
        box.south + (lerp(a.y, b.y, f) + (f < 0.5 ? a.noiseY : b.noiseY)) / metresPerDegreeLat,
        box.south + inset,
        box.north - inset,
      ),
      longitude: clamp(
        box.west + (lerp(a.x, b.x, f) + (f < 0.5 ? a.noiseX : b.noiseX)) / this.metresPerDegreeLon,
        box.west + inset,
        box.east - inset,
      ),
      depth,
      heading: (((a.heading + dh * f) % 360) + 360) % 360,
      altitude: Math.max(0, seafloor - depth),
    };
  }
}

/** The aux data array Sealog's navigation inserters write: values as strings, with units. */
export function navDataArray(fix: NavFix): Array<{ data_name: string; data_value: string; data_uom: string }> {
  return [
    { data_name: 'latitude', data_value: fix.latitude.toFixed(6), data_uom: 'ddeg' },
    { data_name: 'longitude', data_value: fix.longitude.toFixed(6), data_uom: 'ddeg' },
    { data_name: 'depth', data_value: fix.depth.toFixed(2), data_uom: 'm' },
    { data_name: 'heading', data_value: (Number(fix.heading.toFixed(2)) % 360).toFixed(2), data_uom: 'deg' },
    { data_name: 'altitude', data_value: fix.altitude.toFixed(2), data_uom: 'm' },
  ];
}
