import { PlaceholderCard } from '../../components/placeholder-card';

/** / — the event logging console (seed 001 §2.1); built in its own issue. */
export function EventLoggingRoute() {
  return <PlaceholderCard title={'Event Logging'} />;
}
