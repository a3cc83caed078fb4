import { parseUtcInput } from '@bathylog/shared';

/** `YYYY-MM-DD` of an ISO time, as the archive form shows an embargo ('' for none). */
export function embargoDateOf(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : '';
}

/**
 * The embargo instant the archive form saves (docs/public-archive.md): the form shows only the
 * date, so while that date is what it showed, the stored instant is kept as it is (an 18:00Z
 * embargo stays 18:00Z); a date the user typed is UTC midnight of that day; empty is none.
 * `undefined` when the text is no date.
 */
export function embargoToSave(text: string, stored: string | null | undefined): string | null | undefined {
  const typed = text.trim();
  if (typed === '') return null;
  if (stored && typed === embargoDateOf(stored)) return stored;
  const at = parseUtcInput(typed);
  if (at === null) return undefined;
  return new Date(Math.floor(at / 86_400_000) * 86_400_000).toISOString();
}
