import {
  diveTrackOf,
  eventSchema,
  loweringSchema,
  readTrackColumns,
  trackPath,
  type DiveTrack,
  type LogEvent,
  type Lowering,
} from '@bathylog/shared';
import { api, getList } from '../../api/client';

// A lowering, its events and its dive track as several screens read them (the review screens and
// the milestones/stats editor); each screen keeps its own query keys.

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/**
 * A whole dive holds tens of thousands of events: a full zod parse of 20,000 costs hundreds of
 * milliseconds in the browser. This checks every field the editor reads instead (and fails as
 * loudly on drift); the first event also gets the full schema.
 */
export function readLoweringEvents(raw: unknown): LogEvent[] {
  if (!Array.isArray(raw)) throw new Error('Invalid response from server');
  if (raw.length > 0) eventSchema.parse(raw[0]);
  for (const e of raw) {
    const ok =
      isRecord(e) &&
      typeof e.id === 'string' &&
      typeof e.ts === 'string' &&
      typeof e.event_value === 'string' &&
      typeof e.event_free_text === 'string' &&
      Array.isArray(e.event_options);
    if (!ok) throw new Error('Invalid response from server');
  }
  return raw as LogEvent[];
}

export async function getLowering(id: string, signal?: AbortSignal): Promise<Lowering> {
  return loweringSchema.parse(await api.get(`lowerings/${id}`, { signal }));
}

/** GET events/bylowering/{id}: every event of the lowering (no aux data), oldest first. */
export async function getAllLoweringEvents(id: string, signal?: AbortSignal): Promise<LogEvent[]> {
  return readLoweringEvents(await getList(`events/bylowering/${id}`, { signal }));
}

/**
 * The dive track (docs/screens.md#track-and-position) from GET tracks/bylowering/{id}: the server
 * applies the position rule (first configured source with records, nav.ts) over the whole
 * lowering, zero fixes dropped; records it could not read are logged "Problem parsing" here.
 */
export async function getLoweringTrack(id: string, signal?: AbortSignal): Promise<DiveTrack> {
  const track = diveTrackOf(readTrackColumns(await api.get(trackPath(id), { signal })));
  const shown = track.problems.slice(0, 20);
  for (const p of shown) console.warn(`${p.problem}: event ${p.eventId}`);
  if (track.problems.length > shown.length) {
    console.warn(`Problem parsing: ${track.problems.length - shown.length} more records`);
  }
  return track;
}
