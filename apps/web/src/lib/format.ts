/**
 * Decimal SI sizes as the footer shows them (pretty-bytes style, 3 significant digits):
 * 38400000000 → "38.4 GB".
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '';
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  const negative = bytes < 0;
  let n = Math.abs(bytes);
  if (n < 1) return `${negative ? '-' : ''}${n} B`;
  const exponent = Math.min(Math.floor(Math.log10(n) / 3), units.length - 1);
  n = Number((n / 1000 ** exponent).toPrecision(3));
  return `${negative ? '-' : ''}${n} ${units[exponent]}`;
}

/** An ISO-8601 UTC timestamp as `YYYY-MM-DD HH:mm:ss` (UTC, as every time in the client). */
export function formatUtc(iso: string | null | undefined): string {
  if (!iso) return '';
  return iso.slice(0, 19).replace('T', ' ');
}

/**
 * How long ago `iso` was, in the largest whole unit: "just now" (under 5 s), "42 s ago",
 * "5 min ago", "3 h ago", "2 days ago". A time ahead of `now` (clocks apart) is "just now".
 */
export function formatAgo(iso: string, now = Date.now()): string {
  const seconds = Math.floor((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}
