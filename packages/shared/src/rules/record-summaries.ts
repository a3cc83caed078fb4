import { formatDuration, formatSlashDate } from '../duration.js';
import { phaseDurations, type MilestoneSettings, type PhaseName } from './milestones.js';
import type { Cruise } from '../schemas/cruises.js';
import type { Lowering } from '../schemas/lowerings.js';

/**
 * What the cruise menu, the management rows and the form headers say about a cruise or a
 * lowering and the copy-to-clipboard texts, as the Sealog client wrote them (crews paste them
 * into reports). Phase durations come
 * from the milestone rules (milestones.ts).
 */

/** The configured words, e.g. {Cruise: 'Cruise', Lowering: 'Dive', Lowerings: 'Dives'}. */
export interface SummaryNames {
  Cruise: string;
  Lowering: string;
  Lowerings: string;
}

/** The abort milestone's time, when set. */
export function loweringAbortedAt(
  lowering: Pick<Lowering, 'lowering_additional_meta'>,
  milestones: Pick<MilestoneSettings, 'abort'>,
): string | null {
  const name = milestones.abort.name;
  if (!name) return null;
  const ts = lowering.lowering_additional_meta.milestones?.[name];
  return ts && !Number.isNaN(Date.parse(ts)) ? ts : null;
}

/** Max depth as stored (a number or numeric text), or null when there is none. */
export function loweringMaxDepth(lowering: Pick<Lowering, 'lowering_additional_meta'>): string | null {
  const v = lowering.lowering_additional_meta.stats?.max_depth;
  if (v === null || v === undefined || v === '') return null;
  return String(v);
}

/** The bounding box "N, E, S, W", or null when the stats have none. */
export function loweringBoundingBox(lowering: Pick<Lowering, 'lowering_additional_meta'>): string | null {
  const box = lowering.lowering_additional_meta.stats?.bounding_box;
  if (!box || box.length === 0) return null;
  return box.map(String).join(', ');
}

function label(text: string, width: number): string {
  return text.padEnd(Math.max(width, text.length + 1), ' ');
}

/**
 * The cruise summary for the clipboard. `lowerings` (their IDs) only from the cruise menu,
 * which knows them; the management screens leave it out.
 */
export function cruiseSummaryText(
  cruise: Pick<Cruise, 'cruise_id' | 'cruise_location' | 'start_ts' | 'stop_ts' | 'cruise_additional_meta'>,
  names: Pick<SummaryNames, 'Cruise' | 'Lowerings'>,
  lowerings?: readonly string[],
): string {
  const meta = cruise.cruise_additional_meta;
  const C = names.Cruise;
  const w = Math.max(17, `Start of ${C}:`.length + 1, `${C} Duration:`.length + 1, `${C} Name:`.length + 1);
  const lines: string[] = [];
  const opt = (text: string, value: string | undefined, width = w) => {
    if (value) lines.push(`${label(text, width)}${value}`);
  };
  lines.push(`${label(`${C} ID:`, w)}${cruise.cruise_id}`);
  opt(`${C} Name:`, meta.cruise_name);
  opt('Chief Scientist:', meta.cruise_pi);
  opt('Description:', meta.cruise_description);
  opt('Vessel:', meta.cruise_vessel, 10);
  opt('Location:', cruise.cruise_location, 10);
  lines.push('');
  lines.push(`${label(`Start of ${C}:`, w)}${formatSlashDate(cruise.start_ts)}`);
  opt('Departure Port:', meta.cruise_departure_location);
  lines.push(`${label(`End of ${C}:`, w)}${formatSlashDate(cruise.stop_ts)}`);
  opt('Arrival Port:', meta.cruise_arrival_location);
  lines.push('');
  lines.push(
    `${label(`${C} Duration:`, w)}${formatDuration(Date.parse(cruise.stop_ts) - Date.parse(cruise.start_ts))}`,
  );
  if (lowerings && lowerings.length > 0) {
    lines.push('');
    lines.push(`${names.Lowerings}: ${lowerings.join(', ')}`);
  }
  return lines.join('\n');
}

/** The lowering summary for the clipboard (milestone times verbatim, durations as `formatDuration`). */
export function loweringSummaryText(
  lowering: Pick<Lowering, 'lowering_id' | 'lowering_location' | 'start_ts' | 'stop_ts' | 'lowering_additional_meta'>,
  names: Pick<SummaryNames, 'Lowering'>,
  milestones: MilestoneSettings,
): string {
  const meta = lowering.lowering_additional_meta;
  const L = names.Lowering;
  const lines: string[] = [`${L} ID: ${lowering.lowering_id}`];
  if (meta.lowering_name) lines.push(`${L} Name: ${meta.lowering_name}`);
  if (meta.lowering_description) lines.push(`Description: ${meta.lowering_description}`);
  lines.push('', `Location: ${lowering.lowering_location}`, '');

  const w = Math.max(19, `Start of ${L}:`.length + 1, `End of ${L}:`.length + 1);
  lines.push(`${label(`Start of ${L}:`, w)}${lowering.start_ts}`);
  for (const milestone of milestones.list) {
    const ts = milestone.name ? meta.milestones?.[milestone.name] : undefined;
    if (ts) lines.push(`${label(`${milestone.label}:`, w)}${ts}`);
  }
  lines.push(`${label(`End of ${L}:`, w)}${lowering.stop_ts}`, '');

  const d = 14;
  const phaseLabel: Record<PhaseName, string> = {
    'Deck-to-Deck': 'Deck-to-Deck:',
    Deployment: 'Deployment:',
    Descent: 'Descent:',
    'On Bottom': 'On bottom:',
    Ascent: 'Ascent:',
    Recovery: 'Recovery:',
  };
  for (const phase of phaseDurations(lowering, milestones)) {
    lines.push(`${label(phaseLabel[phase.phase], d)}${formatDuration(phase.ms)}`);
  }
  lines.push('');
  const aborted = loweringAbortedAt(lowering, milestones);
  // As stored, like every other time in this text: one format a report can parse.
  if (aborted) lines.push(`Aborted: ${aborted}`, '');
  const depth = loweringMaxDepth(lowering);
  if (depth !== null) lines.push(`${label('Max Depth:', d)}${depth}m`);
  const box = loweringBoundingBox(lowering);
  if (box !== null) lines.push(`${label('Bounding Box:', d)}${box}`);
  return lines.join('\n');
}
