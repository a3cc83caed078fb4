import { useQuery } from '@tanstack/react-query';
import { auditPageSchema, type AuditEntry } from '@bathylog/shared';
import { api } from '../../../api/client';

/** An event's audit trail (admins), newest first. */
export const eventHistoryKeys = {
  all: ['audit'] as const,
  event: (id: string) => [...eventHistoryKeys.all, 'event', id] as const,
};

export async function getEventHistory(eventId: string, signal?: AbortSignal): Promise<AuditEntry[]> {
  const page = auditPageSchema.parse(
    await api.get('audit', { query: { record_type: 'event', record_id: eventId, limit: 100 }, signal }),
  );
  return page.entries;
}

export function useEventHistory(eventId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: eventHistoryKeys.event(eventId ?? ''),
    queryFn: ({ signal }) => getEventHistory(eventId!, signal),
    enabled: enabled && !!eventId,
  });
}
