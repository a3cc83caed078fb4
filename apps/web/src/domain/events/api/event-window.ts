import { useQuery } from '@tanstack/react-query';
import { getList } from '../../../api/client';
import { useAuth } from '../../../lib/auth';

interface CruiseTimes {
  start_ts: string;
  stop_ts: string;
}

/**
 * Where a non-admin's view of events begins (docs/screens.md#who-sees-which-events): the start of
 * the cruise covering now, otherwise the stop of the latest cruise; null (no limit) when there are
 * no cruises. Hidden cruises do not count (the server leaves them out for non-admins).
 */
export async function getEventWindowStart(signal?: AbortSignal, now = new Date()): Promise<string | null> {
  const iso = now.toISOString();
  // Overlap test of GET cruises: start_ts < stopTS and stop_ts > startTS, i.e. covering now.
  const current = await getList<CruiseTimes>('cruises', { query: { startTS: iso, stopTS: iso }, signal });
  if (current.length > 0) {
    return current.map((c) => c.start_ts).sort()[0]!;
  }
  // Newest first by start.
  const latest = await getList<CruiseTimes>('cruises', { query: { limit: 1 }, signal });
  return latest[0]?.stop_ts ?? null;
}

export const eventWindowKeys = { start: ['event-window', 'start'] as const };

/**
 * `{ ready, startTS }` for the event lists: admins see everything (startTS undefined at once);
 * others wait until their window is known, so no earlier event ever flashes by.
 */
export function useEventWindow(): { ready: boolean; startTS: string | undefined } {
  const auth = useAuth();
  const known = !!auth.profile;
  const isAdmin = auth.hasRole('admin');
  const query = useQuery({
    queryKey: eventWindowKeys.start,
    queryFn: ({ signal }) => getEventWindowStart(signal),
    enabled: known && !isAdmin,
    // A cruise starting or ending during a watch moves the window; check now and then.
    staleTime: 5 * 60_000,
    refetchInterval: 10 * 60_000,
  });
  if (!known) return { ready: false, startTS: undefined };
  if (isAdmin) return { ready: true, startTS: undefined };
  return { ready: query.data !== undefined, startTS: query.data ?? undefined };
}
