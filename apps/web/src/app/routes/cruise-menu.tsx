import { PlaceholderCard } from '../../components/placeholder-card';
import { useEntityNames } from '../../lib/settings';

/** /cruise_menu — the cruise and lowering browser (seed 000 §2); built in its own issue. */
export function CruiseMenuRoute() {
  const names = useEntityNames();
  return <PlaceholderCard title={`Review ${names.Cruises}/${names.Lowerings}`} />;
}
