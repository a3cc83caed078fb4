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
  // Date.UTC reads years 0–99 as 1900–1999; setting the full year afterwards keeps them exact.
  const check = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms));
  check.setUTCFullYear(Number(y), month - 1, day);
  let epoch = check.getTime();
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

/** Which end of a range a typed time is for: a date alone means its first or its last millisecond. */
export type TimeEdge = 'start' | 'end';

const dateOnly = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The one rule for a date/time a user types into any filter or form, always UTC
 * (docs/screens.md#date-and-time-fields): `YYYY-MM-DD` (00:00:00.000 of that day, or
 * 23:59:59.999 for the end of a range), `YYYY-MM-DD HH:mm`, `YYYY-MM-DD HH:mm:ss(.SSS)`, and ISO-8601
 * with `T`, with or without milliseconds, `Z` or an offset. Epoch ms, or null when not one of these.
 */
export function parseUtcInput(text: string, edge: TimeEdge = 'start'): number | null {
  const t = text.trim();
  const ms = parseIsoTimestamp(t);
  if (ms === null) return null;
  return edge === 'end' && dateOnly.test(t) ? ms + 86_400_000 - 1 : ms;
}

/** True when the text is a date alone (`YYYY-MM-DD`). */
export function isDateOnlyInput(text: string): boolean {
  return dateOnly.test(text.trim());
}
