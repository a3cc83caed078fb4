import { useQuery, useQueryClient } from '@tanstack/react-query';
import { auxManagerKeys, getAuxManagerStatus } from '../../api/aux-managers';
import { useSubscription } from '../../api/use-realtime';
import { useAuth } from '../../lib/auth';

/** How often the footer asks again without a push (readers do not receive the managers' channel). */
const refetchMs = 30_000;

/**
 * The footer's warning when a required aux-data source is not OK (docs/aux-managers.md#the-footer), beside the
 * completeness line: every completeness push, and for admins every health push, reads the status again.
 */
export function FooterAuxHealth() {
  const queryClient = useQueryClient();
  const auth = useAuth();
  const admin = auth.hasRole('admin');
  const { data } = useQuery({
    queryKey: auxManagerKeys.status(),
    queryFn: ({ signal }) => getAuxManagerStatus(signal),
    refetchInterval: refetchMs,
    retry: false,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: auxManagerKeys.status() });
  useSubscription('completeness', refresh);
  useSubscription('auxManagers', refresh, { enabled: admin });

  if (!data || data.unhealthy.length === 0) return null;
  return (
    <span data-testid="footer-aux-health" aria-live="polite" className="text-warning">
      Aux source {data.unhealthy.map((u) => `${u.data_source || u.name} ${u.state}`).join(', ')}
    </span>
  );
}
