import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
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

const exportedEventListSchema = z.array(exportedEventSchema);

export async function getLowering(id: string, signal?: AbortSignal): Promise<Lowering> {
  return loweringSchema.parse(await api.get(`lowerings/${id}`, { signal }));
}

/** GET event_exports/bylowering/{id}: every event of the lowering with its aux data, oldest first. */
export async function getLoweringEventExports(id: string, signal?: AbortSignal): Promise<ExportedEvent[]> {
  return exportedEventListSchema.parse(await getList(`event_exports/bylowering/${id}`, { signal }));
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
