import { PlaceholderCard } from '../../components/placeholder-card';
import { useEntityNames } from '../../lib/settings';

/** /lowerings — lowering management (seed 001); built in its own issue. */
export function LoweringsRoute() {
  const names = useEntityNames();
  return <PlaceholderCard title={`${names.Lowerings}`} />;
}
