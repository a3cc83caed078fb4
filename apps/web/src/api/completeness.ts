import { useQuery } from '@tanstack/react-query';
import type { CompletenessSummary, NewestCompleteness, WsCompleteness } from '@bathylog/shared';
import { api } from './client';

/** Data completeness (docs/completeness.md): the footer's newest event and a lowering's lane. */
export const completenessKeys = {
  all: ['completeness'] as const,
  newest: () => [...completenessKeys.all, 'newest'] as const,
  lowering: (id: string) => [...completenessKeys.all, 'lowering', id] as const,
};

export function getNewestCompleteness(signal?: AbortSignal): Promise<NewestCompleteness> {
  return api.get<NewestCompleteness>('completeness/newest', { signal });
}

export function getLoweringCompleteness(id: string, signal?: AbortSignal): Promise<CompletenessSummary> {
  return api.get<CompletenessSummary>(`lowerings/${id}/completeness`, { query: { events: 'true' }, signal });
}

/** A lowering's completeness with each event's state (the replay and map lane). */
export function useLoweringCompleteness(id: string | undefined) {
  return useQuery({
    queryKey: completenessKeys.lowering(id ?? ''),
    queryFn: ({ signal }) => getLoweringCompleteness(id!, signal),
    enabled: !!id,
  });
}

/** What the footer says about an event's completeness. */
export function completenessText(c: Pick<WsCompleteness, 'state' | 'missing' | 'stale'>): string {
  if (c.state === 'complete') return 'Newest event complete';
  const parts = [
    ...(c.missing.length > 0 ? [`missing: ${c.missing.join(', ')}`] : []),
    ...(c.stale.length > 0 ? [`stale: ${c.stale.join(', ')}`] : []),
  ];
  const details = parts.join('; ');
  return c.state === 'pending' ? `Newest event waiting for aux data (${details})` : `Newest event ${details}`;
}
