import type { Cruise, Lowering } from '@bathylog/shared';
import { covers, utcYear } from '@bathylog/shared';
import type { MenuSelection } from '../../domain/cruises/cruise-menu-link';

/**
 * The cruise menu's pure rules (docs/screens.md#years-and-selection): years newest first, each with its
 * cruises in server order; the cruise to select on arrival; and the selection remembered for the
 * tab, so coming back from a review screen restores it.
 */
export interface YearGroup {
  year: number;
  cruises: Cruise[];
}

export function groupByYear(cruises: readonly Cruise[]): YearGroup[] {
  const byYear = new Map<number, Cruise[]>();
  for (const cruise of cruises) {
    const year = utcYear(cruise.start_ts);
    if (Number.isNaN(year)) continue;
    byYear.set(year, [...(byYear.get(year) ?? []), cruise]);
  }
  return [...byYear.entries()].sort((a, b) => b[0] - a[0]).map(([year, list]) => ({ year, cruises: list }));
}

/** The cruise whose start–stop covers now, if any. */
export function activeCruise(cruises: readonly Cruise[], now: number = Date.now()): Cruise | null {
  return cruises.find((c) => covers(c, now)) ?? null;
}

/** The lowerings in the order they happened. */
export function inTimeOrder(lowerings: readonly Lowering[]): Lowering[] {
  return [...lowerings].sort((a, b) => Date.parse(a.start_ts) - Date.parse(b.start_ts));
}

/** The most recent lowering (the server lists newest first; sorted here to be sure). */
export function latestLowering(lowerings: readonly Lowering[]): Lowering | null {
  return [...lowerings].sort((a, b) => Date.parse(b.start_ts) - Date.parse(a.start_ts))[0] ?? null;
}

const storageKey = 'bathylog.cruiseMenu';

export function rememberSelection(selection: MenuSelection): void {
  try {
    sessionStorage.setItem(storageKey, JSON.stringify(selection));
  } catch {
    // Private mode or storage full: the menu still works, it just does not remember.
  }
}

export function rememberedSelection(): MenuSelection | null {
  try {
    const raw = sessionStorage.getItem(storageKey);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<MenuSelection>;
    return {
      cruiseId: typeof parsed.cruiseId === 'string' ? parsed.cruiseId : null,
      loweringId: typeof parsed.loweringId === 'string' ? parsed.loweringId : null,
    };
  } catch {
    return null;
  }
}
