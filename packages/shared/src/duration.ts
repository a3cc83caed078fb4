/**
 * Durations and dates as users read them on the cruise menu, the management tables and the
 * clipboard summaries, in the formats the Sealog client showed (users compare the two). All dates
 * are UTC.
 */

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

function unit(n: number, singular: string): string {
  return `${n} ${n === 1 ? singular : `${singular}s`}`;
}

/**
 * "d days h hours m minutes": leading zero units dropped, inner zeros kept, the minutes rounded,
 * units singularised. 40 days → "40 days 0 hours 0 minutes"; 45 s → "1 minute"; 0 → "0 minutes".
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  const sign = ms < 0 ? '-' : '';
  const totalMinutes = Math.round(Math.abs(ms) / minuteMs);
  const days = Math.floor(totalMinutes / (dayMs / minuteMs));
  const hours = Math.floor((totalMinutes % (dayMs / minuteMs)) / 60);
  const minutes = totalMinutes % 60;
  const parts: string[] = [];
  if (days > 0) parts.push(unit(days, 'day'));
  if (days > 0 || hours > 0) parts.push(unit(hours, 'hour'));
  parts.push(unit(minutes, 'minute'));
  return sign + parts.join(' ');
}

const pad = (n: number) => String(n).padStart(2, '0');

function asDate(ts: string | number | Date): Date | null {
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** `YYYY-MM-DD HH:mm` (UTC), the list format of the Sealog client; '' for a bad time. */
export function formatListDateTime(ts: string | number | Date): string {
  const d = asDate(ts);
  if (!d) return '';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** `YYYY/MM/DD` (UTC), the cruise dates of the Sealog cruise menu; '' for a bad time. */
export function formatSlashDate(ts: string | number | Date): string {
  const d = asDate(ts);
  if (!d) return '';
  return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}`;
}

/** `YYYY-MM-DD` (UTC); '' for a bad time. */
export function formatIsoDate(ts: string | number | Date): string {
  const d = asDate(ts);
  if (!d) return '';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** The UTC year of a time (the cruise menu's year column); NaN for a bad time. */
export function utcYear(ts: string | number | Date): number {
  const d = asDate(ts);
  return d ? d.getUTCFullYear() : Number.NaN;
}

/**
 * A duration as moment-duration-format's "d days hh:mm:ss" shows it (the Sealog
 * client's library for this): the
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
