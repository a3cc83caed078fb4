import { PlaceholderCard } from '../../components/placeholder-card';

/** /event_management — filtered event search (seed 001); built in its own issue. */
export function EventManagementRoute() {
  return <PlaceholderCard title={'Event Management'} />;
}
