import type { ClientSettings } from '../schemas/client-settings.js';
import { parseIsoTimestamp, parseUtcInput } from '../time.js';

/**
 * Milestones and stats of a lowering, as the Sealog client keeps them: the
 * configured milestone list, the phase durations the cruise menu and the clipboard show, the
 * validation of the milestones/stats editor and the PATCH body it sends. One rule, one place.
 */

/** The editor's messages, word for word as the Sealog client shows them. */
export const milestoneMessages = {
  required: 'Required',
  invalidTimestamp: 'Invalid timestamp',
  stopBeforeStart: 'Stop timestamp must be later than start timestamp',
  abortOutside: 'Abort timestamp must be between start and stop timestamps',
  outOfSequence: 'This milestone is out of sequence.',
  outsideStartStop: 'This milestone is outside of start/stop timestamps.',
  maxDepth: 'Must be a positive floating point number',
  latitude: 'Must be a number between +/- 60',
  longitude: 'Must be a number between +/- 180',
} as const;

/** Bounding-box limits of the Sealog editor: north and south within ±60, east and west within ±180. */
export const boundingBoxLimits = { latitude: 60, longitude: 180 } as const;

/** Inside the editor the start and stop pseudo-milestones are keyed by the lowering's own fields. */
export const startMilestoneKey = 'start_ts';
export const stopMilestoneKey = 'stop_ts';

export type MilestoneRole = 'start' | 'milestone' | 'stop' | 'abort';

export interface MilestoneField {
  /** `start_ts`, `stop_ts`, or the milestone's name in `lowering_additional_meta.milestones`. */
  key: string;
  label: string;
  role: MilestoneRole;
}

export type MilestoneSettings = ClientSettings['milestones'];

/**
 * The editor's rows in display order: Off Deck (start_ts), the configured milestones, On Deck
 * (stop_ts), then the abort milestone (start and stop are
 * the lowering's own times, so they have no milestone key).
 */
export function milestoneFields(settings: MilestoneSettings): MilestoneField[] {
  const fields: MilestoneField[] = [{ key: startMilestoneKey, label: settings.start.label, role: 'start' }];
  for (const m of settings.list) {
    if (m.name) fields.push({ key: m.name, label: m.label, role: 'milestone' });
  }
  fields.push({ key: stopMilestoneKey, label: settings.stop.label, role: 'stop' });
  if (settings.abort.name) fields.push({ key: settings.abort.name, label: settings.abort.label, role: 'abort' });
  return fields;
}

/** What the rules read of a lowering. */
export interface LoweringTimes {
  start_ts: string;
  stop_ts: string;
  lowering_additional_meta?: { milestones?: Record<string, string | null> | undefined } | undefined;
}

/** Milestone key → ISO time ('' when unset), start_ts and stop_ts included: the editor's state. */
export type MilestoneValues = Record<string, string>;

/** The editor's starting values from a lowering: every configured key, unset ones as ''. */
export function milestoneValuesOf(lowering: LoweringTimes, settings: MilestoneSettings): MilestoneValues {
  const stored = lowering.lowering_additional_meta?.milestones ?? {};
  const values: MilestoneValues = {};
  for (const f of milestoneFields(settings)) {
    if (f.key === startMilestoneKey) values[f.key] = lowering.start_ts;
    else if (f.key === stopMilestoneKey) values[f.key] = lowering.stop_ts;
    else values[f.key] = stored[f.key] ?? '';
  }
  return values;
}

export type PhaseName = 'Deck-to-Deck' | 'Deployment' | 'Descent' | 'On Bottom' | 'Ascent' | 'Recovery';

export interface PhaseDuration {
  phase: PhaseName;
  /** milliseconds */
  ms: number;
}

/**
 * The phase durations of a lowering, in display order, each only when both
 * of its ends are set: Deck-to-Deck = stop − start; Deployment = descending − start; Descent =
 * on bottom − descending; On Bottom = off bottom − on bottom; Ascent = on surface − off bottom;
 * Recovery = stop − on surface (shown whenever both exist, not only with Ascent, as on the
 * Sealog lowering card).
 */
export function phaseDurations(lowering: LoweringTimes, settings: MilestoneSettings): PhaseDuration[] {
  const stored = lowering.lowering_additional_meta?.milestones ?? {};
  const at = (iso: string | null | undefined) => (iso ? parseIsoTimestamp(iso) : null);
  const start = at(lowering.start_ts);
  const stop = at(lowering.stop_ts);
  const [descending, onBottom] = settings.descent.map((name) => at(stored[name]));
  const [offBottom, onSurface] = settings.ascent.map((name) => at(stored[name]));
  const spans: Array<[PhaseName, number | null | undefined, number | null | undefined]> = [
    ['Deck-to-Deck', start, stop],
    ['Deployment', start, descending],
    ['Descent', descending, onBottom],
    ['On Bottom', onBottom, offBottom],
    ['Ascent', offBottom, onSurface],
    ['Recovery', onSurface, stop],
  ];
  const out: PhaseDuration[] = [];
  for (const [phase, from, to] of spans) {
    if (from !== null && from !== undefined && to !== null && to !== undefined) out.push({ phase, ms: to - from });
  }
  return out;
}

/** The Stats half of the editor as typed (numbers as text; '' = not set). */
export interface StatsValues {
  maxDepth: string;
  north: string;
  east: string;
  south: string;
  west: string;
}

/** The stats of a lowering as the editor shows them. */
export function statsValuesOf(
  stats: { max_depth?: unknown; bounding_box?: readonly unknown[] } | undefined,
): StatsValues {
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const box = stats?.bounding_box ?? [];
  return {
    maxDepth: text(stats?.max_depth),
    north: text(box[0]),
    east: text(box[1]),
    south: text(box[2]),
    west: text(box[3]),
  };
}

export type MilestonesFormErrors = Partial<Record<string, string>>;

function numberIn(text: string, limit?: number): number | null {
  const t = text.trim();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return null;
  const n = Number(t);
  if (!Number.isFinite(n)) return null;
  if (limit !== undefined && Math.abs(n) > limit) return null;
  return n;
}

/**
 * Validates the editor: errors keyed by milestone key (`start_ts`, `stop_ts`, names)
 * and by stats field (`maxDepth`, `north`, `east`, `south`, `west`). Empty when valid. Milestones
 * and stats may be left unset; a bounding box is all four numbers or none.
 */
export function validateMilestonesForm(
  milestones: MilestoneValues,
  stats: StatsValues,
  settings: MilestoneSettings,
): MilestonesFormErrors {
  const errors: MilestonesFormErrors = {};
  const times: Record<string, number | null> = {};
  for (const f of milestoneFields(settings)) {
    const text = (milestones[f.key] ?? '').trim();
    if (text === '') {
      times[f.key] = null;
      if (f.role === 'start' || f.role === 'stop') errors[f.key] = milestoneMessages.required;
      continue;
    }
    const t = parseUtcInput(text);
    times[f.key] = t;
    if (t === null) errors[f.key] = milestoneMessages.invalidTimestamp;
  }
  const start = times[startMilestoneKey] ?? null;
  const stop = times[stopMilestoneKey] ?? null;
  if (start !== null && stop !== null && stop <= start) errors[stopMilestoneKey] = milestoneMessages.stopBeforeStart;
  // Range checks only against a valid start/stop pair (a bad pair is reported once, on stop).
  const bounded = start !== null && stop !== null && stop > start;

  let previous: number | null = null;
  for (const f of milestoneFields(settings)) {
    const t = times[f.key] ?? null;
    if (t === null || errors[f.key]) continue;
    if (f.role === 'abort') {
      if (bounded && (t < start || t > stop)) errors[f.key] = milestoneMessages.abortOutside;
    } else if (f.role === 'milestone') {
      if (bounded && (t < start || t > stop)) errors[f.key] = milestoneMessages.outsideStartStop;
      else if (previous !== null && t < previous) errors[f.key] = milestoneMessages.outOfSequence;
      previous = t;
    }
  }

  if (stats.maxDepth.trim() !== '') {
    const depth = numberIn(stats.maxDepth);
    if (depth === null || depth < 0) errors.maxDepth = milestoneMessages.maxDepth;
  }
  const box: Array<[keyof StatsValues, number, string]> = [
    ['north', boundingBoxLimits.latitude, milestoneMessages.latitude],
    ['east', boundingBoxLimits.longitude, milestoneMessages.longitude],
    ['south', boundingBoxLimits.latitude, milestoneMessages.latitude],
    ['west', boundingBoxLimits.longitude, milestoneMessages.longitude],
  ];
  const anyBox = box.some(([k]) => stats[k].trim() !== '');
  for (const [k, limit, message] of box) {
    if (stats[k].trim() === '') {
      if (anyBox) errors[k] = milestoneMessages.required;
    } else if (numberIn(stats[k], limit) === null) errors[k] = message;
  }
  return errors;
}

/**
 * The editor's messages after a chart click moved one milestone: a message the move raised on another
 * milestone (the next one now "out of sequence", a milestone now outside a moved start) is shown on
 * the moved one instead, which is the one to fix (docs/screens.md#editing-on-the-chart). Messages
 * that were there before the move stay where they are.
 */
export function errorsAfterMove(
  before: MilestonesFormErrors,
  after: MilestonesFormErrors,
  moved: string,
  fields: readonly MilestoneField[],
): MilestonesFormErrors {
  const out: MilestonesFormErrors = { ...after };
  for (const f of fields) {
    const message = after[f.key];
    if (f.key === moved || !message || before[f.key] === message) continue;
    delete out[f.key];
    out[moved] ??= message;
  }
  return out;
}

/** The stored stats: `max_depth` a number (absent when unset) and `bounding_box` [N, E, S, W] or []. */
export function statsOf(values: StatsValues): { max_depth?: number; bounding_box: number[] } {
  const out: { max_depth?: number; bounding_box: number[] } = { bounding_box: [] };
  const depth = numberIn(values.maxDepth);
  if (depth !== null) out.max_depth = depth;
  const box = [values.north, values.east, values.south, values.west].map((v) => numberIn(v));
  if (box.every((n) => n !== null)) out.bounding_box = box as number[];
  return out;
}

/** Any text the editor accepts as a time → the wire's ISO form (UTC, milliseconds); '' stays ''. */
export function normalizeMilestoneTime(text: string): string {
  const t = text.trim() === '' ? null : parseUtcInput(text);
  return t === null ? '' : new Date(t).toISOString();
}

/**
 * The PATCH body that saves the editor: new start/stop, the milestones
 * without start/stop (unset ones as null; milestones the configuration does not name are kept),
 * and the stats. The rest of `lowering_additional_meta` is sent back unchanged, because a PATCH
 * replaces the meta object whole.
 */
export function milestonesUpdateBody(
  lowering: LoweringTimes & { lowering_additional_meta: Record<string, unknown> },
  milestones: MilestoneValues,
  stats: StatsValues,
  settings: MilestoneSettings,
) {
  const meta = lowering.lowering_additional_meta;
  const stored = (meta.milestones ?? {}) as Record<string, string | null>;
  const saved: Record<string, string | null> = { ...stored };
  for (const f of milestoneFields(settings)) {
    if (f.role === 'start' || f.role === 'stop') continue;
    const iso = normalizeMilestoneTime(milestones[f.key] ?? '');
    saved[f.key] = iso === '' ? null : iso;
  }
  delete saved[startMilestoneKey];
  delete saved[stopMilestoneKey];
  const previousStats = (meta.stats ?? {}) as Record<string, unknown>;
  const { max_depth: _oldDepth, ...otherStats } = previousStats;
  return {
    start_ts: normalizeMilestoneTime(milestones[startMilestoneKey] ?? ''),
    stop_ts: normalizeMilestoneTime(milestones[stopMilestoneKey] ?? ''),
    lowering_additional_meta: { ...meta, milestones: saved, stats: { ...otherStats, ...statsOf(stats) } },
  };
}
