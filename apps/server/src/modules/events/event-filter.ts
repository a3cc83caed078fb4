import { splitFilterTerms, splitNegatedTerms } from '@bathylog/shared';
import { AppError } from '../../lib/app-error.js';
import { EventAccess, type OriginWindow, type TsWindow } from '../access/event-access.js';
import type { CompletenessSettings } from '../completeness/completeness.rules.js';

/**
 * The event filter of docs/wire.md#event-filters after parsing: every text condition is a list of
 * case-insensitive substring terms (OR-ed within a list, lists AND-ed), never a pattern.
 */
export interface EventFilter {
  /** Inclusive ts window in epoch ms, after clamping startTS/stopTS into the route's window. */
  lo: number;
  hi: number;
  authors: string[];
  /** `value` terms, and the event_value exclusions of `!` fulltext terms. */
  values: { include: string[]; exclude: string[] };
  freetext: string[];
  /** Fulltext terms: value, free text, option values or author contains one of them. */
  fulltext: string[];
  /** Aux-data sources the event must have one of; `substring` on /events, `exact` elsewhere (Sealog). */
  datasources: string[];
  datasourceMatch: 'substring' | 'exact';
  /** ts windows the caller may not see inside [lo, hi] (modules/access/event-access.ts), merged. */
  excluded: TsWindow[];
  /** Windows hiding only the events of one origin inside [lo, hi] (modules/access/event-access.ts). */
  scoped: OriginWindow[];
  /**
   * `completeness=incomplete`: only events incomplete at `now` (docs/completeness.md#event-lists),
   * each rule judging the events within its windows (null: every event of the list) by its settings.
   */
  incomplete: { rules: Array<{ settings: CompletenessSettings; windows: TsWindow[] | null }>; now: number } | null;
}

export interface FilterQuery {
  author?: string[] | undefined;
  value?: string[] | undefined;
  freetext?: string[] | undefined;
  fulltext?: string[] | undefined;
  datasource?: string[] | undefined;
  startTS?: number | undefined;
  stopTS?: number | undefined;
  completeness?: 'incomplete' | undefined;
}

/** The window a route searches: 1970..now for the global lists, the record's bounds for bycruise/bylowering. */
export interface TimeWindow {
  lo: number;
  hi: number;
}

export function globalWindow(now = Date.now()): TimeWindow {
  return { lo: 0, hi: now };
}

/**
 * Builds the filter. startTS/stopTS outside the window fall back to its bounds, as Sealog does
 * (a start in the future means "from the beginning"); a stop before the start is refused.
 */
export function buildEventFilter(
  query: FilterQuery,
  window: TimeWindow,
  datasourceMatch: 'substring' | 'exact',
  access: EventAccess = EventAccess.everything,
): EventFilter {
  if (query.startTS !== undefined && query.stopTS !== undefined && query.stopTS < query.startTS) {
    throw new AppError('BAD_REQUEST', '"stopTS" must be later than "startTS"');
  }
  const inWindow = (t: number | undefined) => t !== undefined && t >= window.lo && t <= window.hi;
  // The caller's hidden windows: those covering an end of the range move it, the others stay as exclusions.
  const range = access.narrow(
    inWindow(query.startTS) ? query.startTS! : window.lo,
    inWindow(query.stopTS) ? query.stopTS! : window.hi,
    true,
  );
  const { lo, hi } = range;

  const values = splitNegatedTerms(splitFilterTerms(query.value));
  const fulltext = splitNegatedTerms(splitFilterTerms(query.fulltext));
  return {
    lo,
    hi,
    authors: splitFilterTerms(query.author),
    values: { include: values.include, exclude: [...values.exclude, ...fulltext.exclude] },
    freetext: splitFilterTerms(query.freetext),
    fulltext: fulltext.include,
    datasources: splitFilterTerms(query.datasource),
    datasourceMatch,
    excluded: lo <= hi ? access.within(lo, hi, true) : [],
    scoped: lo <= hi ? access.scopedWithin(lo, hi) : [],
    incomplete: null,
  };
}

/** True when the filter narrows events beyond the time window (used by aux-data listing rules). */
export function hasTextConditions(filter: EventFilter): boolean {
  return (
    filter.authors.length > 0 ||
    filter.values.include.length > 0 ||
    filter.values.exclude.length > 0 ||
    filter.freetext.length > 0 ||
    filter.fulltext.length > 0 ||
    filter.incomplete !== null
  );
}
