import { PlaceholderCard } from '../../components/placeholder-card';
import { useEntityNames } from '../../lib/settings';

/** /cruises — cruise management (seed 001); built in its own issue. */
export function CruisesRoute() {
  const names = useEntityNames();
  return <PlaceholderCard title={`${names.Cruises}`} />;
}
