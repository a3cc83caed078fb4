/**
 * The depth chart's axes: where its ticks go and what they say. Steps are "nice" numbers at least
 * `space` pixels apart: depths at 1, 2, 2.5 or 5 times a power of ten, times at the usual clock
 * steps, aligned to UTC.
 */

/** The smallest nice step of a value axis whose ticks are at least `space` px apart. */
export function valueStep(range: number, px: number, space = 30): number {
  const raw = (range * space) / Math.max(1, px);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((step) => step >= raw - 1e-9 * magnitude)!;
}

const second = 1_000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;
/** Clock steps, each a divisor of a day (or whole days), so UTC-aligned multiples fall on round times. */
const timeSteps = [
  second,
  2 * second,
  5 * second,
  10 * second,
  15 * second,
  30 * second,
  minute,
  2 * minute,
  5 * minute,
  10 * minute,
  15 * minute,
  30 * minute,
  hour,
  2 * hour,
  3 * hour,
  4 * hour,
  6 * hour,
  12 * hour,
  day,
  2 * day,
  7 * day,
  14 * day,
  28 * day,
];

/** The smallest clock step whose ticks are at least `space` px apart (epoch ms). */
export function timeStep(range: number, px: number, space = 60): number {
  const raw = (range * space) / Math.max(1, px);
  return timeSteps.find((step) => step >= raw) ?? Math.ceil(raw / day) * day;
}

/** The multiples of `step` from `min` to `max`, both included. */
export function splits(min: number, max: number, step: number): number[] {
  const out: number[] = [];
  const first = Math.ceil(min / step - 1e-9);
  for (let i = first; i * step <= max + step * 1e-9 && out.length < 1000; i++)
    out.push(Number((i * step).toPrecision(12)));
  return out;
}

/** UTC tick labels: dates at day steps, HH:mm from a minute, HH:mm:ss below. */
export function timeLabel(ms: number, step: number): string {
  const iso = new Date(ms).toISOString();
  if (step >= day) return iso.slice(5, 10);
  if (step >= minute) return iso.slice(11, 16);
  return iso.slice(11, 19);
}

/** A depth label: no trailing zeros, at most two decimals. */
export function depthLabel(value: number): string {
  return String(Number(value.toFixed(2)));
}

/** The index of the point whose time is nearest to `ts` (`times` ascending, not empty). */
export function nearestIndex(times: readonly number[], ts: number): number {
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! < ts) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && ts - times[lo - 1]! <= times[lo]! - ts) return lo - 1;
  return lo;
}
