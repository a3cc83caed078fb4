import { EventLogScreen } from '../../features/event-log/event-log-screen';

/** / — the event logging console (docs/screens.md#event-logging-console). */
export function EventLoggingRoute() {
  return <EventLogScreen />;
}
