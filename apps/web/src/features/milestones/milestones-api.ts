import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { getAllLoweringEvents, getLowering, getLoweringTrack } from '../../domain/lowerings/lowering-api';

/**
 * What the milestones/stats editor reads and writes: the lowering, its dive track (GET
 * tracks/bylowering: the position rule applied by the server, a few columns instead of every event
 * with its aux data), its events without aux data (the chart's tooltips: no filter, ASNAP
 * included), and the PATCH that saves it.
 */
export const milestonesKeys = {
  all: ['milestones'] as const,
  lowering: (id: string) => [...milestonesKeys.all, 'lowering', id] as const,
  track: (id: string) => [...milestonesKeys.all, 'track', id] as const,
  events: (id: string) => [...milestonesKeys.all, 'events', id] as const,
};

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
  const track = useQuery({
    queryKey: milestonesKeys.track(id),
    queryFn: ({ signal }) => getLoweringTrack(id, signal),
    enabled,
    gcTime: 0,
    staleTime: 0,
  });
  // Only the tooltips need them: asked for once the track is there (the server answers one at a
  // time), the chart and map draw without waiting.
  const events = useQuery({
    queryKey: milestonesKeys.events(id),
    queryFn: ({ signal }) => getAllLoweringEvents(id, signal),
    enabled: enabled && track.isSuccess,
    gcTime: 0,
    staleTime: 0,
  });
  return { lowering, track, events };
}
