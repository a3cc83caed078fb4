import { EventLogScreen } from '../../features/event-log/event-log-screen';

/** / — the event logging console (seed 001 §2.1). */
export function EventLoggingRoute() {
  return <EventLogScreen />;
}
