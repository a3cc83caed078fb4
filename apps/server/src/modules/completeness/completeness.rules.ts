import { checklistEventValue, maxRequiredAuxSources, type CompletenessState } from '@bathylog/shared';
import type { Config } from '../../config.js';
import { parseJson } from '../../lib/json.js';

/**
 * The completeness rule (docs/completeness.md#states): which aux-data sources an event must
 * carry, and how it is judged. Pure functions; the SQL twin of `judge` is completeness.sql.ts.
 */
export interface CompletenessSettings {
  /** Required aux-data sources; empty: completeness is off and every event is complete. */
  sources: string[];
  graceMs: number;
  maxAgeSeconds: number;
}

export interface Judgement {
  state: CompletenessState;
  missing: string[];
  stale: string[];
}

/**
 * The deployment's settings, or a lowering's own sources (`lowering_additional_meta.required_aux_sources`),
 * with the data sources of the enabled required aux-data managers added (`managerSources`). A lowering
 * whose own list is empty has completeness off: no manager turns it on for that dive
 * (docs/completeness.md#required-aux-data-managers).
 */
export function completenessSettings(
  config: Pick<Config, 'completeness'>,
  loweringMeta?: string | null,
  managerSources: readonly string[] = [],
): CompletenessSettings {
  const base = config.completeness;
  const own = loweringMeta ? parseJson<Record<string, unknown>>(loweringMeta, {}) : {};
  const listed = own && typeof own === 'object' ? own.required_aux_sources : undefined;
  // Bounded on input (the lowering schema); a record stored before that keeps its first ones.
  const sources = Array.isArray(listed)
    ? listed
        .filter((s): s is string => typeof s === 'string' && s.trim() !== '')
        .map((s) => s.trim())
        .slice(0, maxRequiredAuxSources)
    : base.requiredAuxSources;
  const off = Array.isArray(listed) && sources.length === 0;
  return {
    sources: off ? [] : [...new Set([...sources, ...managerSources])],
    graceMs: base.graceSeconds * 1000,
    maxAgeSeconds: base.maxAgeSeconds,
  };
}

/**
 * The `data_age` (seconds) a Sealog aux-data script writes into a record's data_array when its
 * sample was older than the event; null when there is none. Leading numbers count ("12.5 s").
 */
export function dataAgeOf(dataArray: string | null | undefined): number | null {
  if (!dataArray || !dataArray.includes('data_age')) return null;
  const items = parseJson<unknown>(dataArray, []);
  if (!Array.isArray(items)) return null;
  for (const item of items) {
    if (item && typeof item === 'object' && (item as { data_name?: unknown }).data_name === 'data_age') {
      const age = Number.parseFloat(String((item as { data_value?: unknown }).data_value));
      if (Number.isFinite(age)) return age;
    }
  }
  return null;
}

/**
 * Event values the server logs as bookkeeping of what people did in the app (a checklist's
 * completion): no aux data is required of them, so they are always complete and never raise the
 * alarm (docs/completeness.md#states). ASNAP is not among them: a snapshot exists to record the
 * aux data, and one without it is the gap the alarm is for.
 */
export const exemptEventValues: readonly string[] = [checklistEventValue];

/**
 * One event's state from its present required sources (source → data_age or null): complete when
 * every source is there and none is stale; otherwise pending within the grace period after the
 * event's time, incomplete after it.
 */
export function judge(
  ts: number,
  present: ReadonlyMap<string, number | null>,
  settings: CompletenessSettings,
  now: number,
  eventValue: string,
): Judgement {
  if (exemptEventValues.includes(eventValue)) return { state: 'complete', missing: [], stale: [] };
  const missing = settings.sources.filter((s) => !present.has(s));
  const stale = settings.sources.filter((s) => {
    const age = present.get(s);
    return age !== undefined && age !== null && age > settings.maxAgeSeconds;
  });
  if (missing.length === 0 && stale.length === 0) return { state: 'complete', missing, stale };
  return { state: now < ts + settings.graceMs ? 'pending' : 'incomplete', missing, stale };
}
