/**
 * Timestamps on the wire are ISO-8601 UTC with milliseconds: `2023-03-14T22:15:39.479Z`.
 * Input accepts what Sealog's Joi `date().iso()` accepted: 0–6 fractional digits, offsets, date-only.
 */
const isoPattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Parses an ISO-8601 string to epoch milliseconds, or returns null when it is not one. */
export function parseIsoTimestamp(value: string): number | null {
  const m = isoPattern.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  let epoch = Date.UTC(Number(y), month - 1, day, hour, minute, second, ms);
  const check = new Date(epoch);
  if (check.getUTCDate() !== day) return null; // 2023-02-31
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
    epoch -= sign * offsetMinutes * 60_000;
  } else if (!zone && h !== undefined) {
    // A date-time without an offset: Sealog read it as server local time; we read it as UTC,
    // which is what every vessel server is set to and what a crew member means.
  }
  return Number.isFinite(epoch) ? epoch : null;
}

export function toIso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** Parses an ISO string or epoch ms (number or numeric string), like Joi's plain `date()`. */
export function parseLooseTimestamp(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (/^-?\d+$/.test(value.trim())) return Number(value);
  const iso = parseIsoTimestamp(value);
  if (iso !== null) return iso;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

/**
 * A duration as moment-duration-format's "d days hh:mm:ss" shows it (client-behaviour §6.7): the
 * replay's end label and slider tooltips. Leading zero units are dropped and the first unit shown
 * is not padded: 45 s → "45", 5 min 3 s → "5:03", 2 h 5 min 3 s → "2:05:03", 2 days 2 h →
 * "2 days 02:00:00", 1 day → "1 day 00:00:00". Seconds are rounded; negative counts as 0.
 */
export function formatClockDuration(ms: number): string {
  let rest = Math.max(0, Math.round(ms / 1000));
  const days = Math.floor(rest / 86_400);
  rest -= days * 86_400;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const seconds = rest - minutes * 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (days > 0) return `${days} ${days === 1 ? 'day' : 'days'} ${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
  if (hours > 0) return `${hours}:${pad(minutes)}:${pad(seconds)}`;
  if (minutes > 0) return `${minutes}:${pad(seconds)}`;
  return String(seconds);
}
