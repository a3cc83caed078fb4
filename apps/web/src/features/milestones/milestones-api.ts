import { useQuery } from '@tanstack/react-query';
import { loweringSchema, type Lowering } from '@bathylog/shared';
import { api, getList } from '../../api/client';
import { exportedEventSchema, type ExportedEvent } from '../events/api/events';

/**
 * What the milestones/stats editor reads and writes (client-behaviour §10.5): the lowering, all of
 * its events with aux data (no filter, ASNAP included), and the PATCH that saves it.
 */
export const milestonesKeys = {
  all: ['milestones'] as const,
  lowering: (id: string) => [...milestonesKeys.all, 'lowering', id] as const,
  events: (id: string) => [...milestonesKeys.all, 'events', id] as const,
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/**
 * The export of a whole dive holds tens of thousands of events: a full zod parse of 20,000 costs
 * about half a second in the browser, most of the editor's budget. This checks every field the
 * editor reads instead (and fails as loudly on drift); the first event also gets the full schema.
 */
export function readExportedEvents(raw: unknown): ExportedEvent[] {
  if (!Array.isArray(raw)) throw new Error('Invalid response from server');
  if (raw.length > 0) exportedEventSchema.parse(raw[0]);
  for (const e of raw) {
    const ok =
      isRecord(e) &&
      typeof e.id === 'string' &&
      typeof e.ts === 'string' &&
      typeof e.event_value === 'string' &&
      typeof e.event_free_text === 'string' &&
      Array.isArray(e.event_options) &&
      Array.isArray(e.aux_data) &&
      e.aux_data.every((a) => isRecord(a) && typeof a.data_source === 'string' && Array.isArray(a.data_array));
    if (!ok) throw new Error('Invalid response from server');
  }
  return raw as ExportedEvent[];
}

export async function getLowering(id: string, signal?: AbortSignal): Promise<Lowering> {
  return loweringSchema.parse(await api.get(`lowerings/${id}`, { signal }));
}

/** GET event_exports/bylowering/{id}: every event of the lowering with its aux data, oldest first. */
export async function getLoweringEventExports(id: string, signal?: AbortSignal): Promise<ExportedEvent[]> {
  return readExportedEvents(await getList(`event_exports/bylowering/${id}`, { signal }));
}

export async function updateLoweringMilestones(id: string, body: Record<string, unknown>): Promise<void> {
  await api.patch(`lowerings/${id}`, body);
}

/** Fresh on every opening (another user may have changed the lowering meanwhile). */
export function useMilestonesData(id: string, enabled: boolean) {
  const lowering = useQuery({
    queryKey: milestonesKeys.lowering(id),
    queryFn: ({ signal }) => getLowering(id, signal),
    enabled,
    gcTime: 0,
    staleTime: 0,
  });
  const events = useQuery({
    queryKey: milestonesKeys.events(id),
    queryFn: ({ signal }) => getLoweringEventExports(id, signal),
    enabled,
    gcTime: 0,
    staleTime: 0,
  });
  return { lowering, events };
}
