import { useSettings } from '../../lib/settings';
import { CruiseMenuRoute } from './cruise-menu';
import { EventLoggingRoute } from './event-logging';

/** `/`: the logging console, or the cruise menu when event logging is disabled (docs/screens.md#routes-and-access). */
export function HomeRoute() {
  const { disableEventLogging } = useSettings();
  return disableEventLogging ? <CruiseMenuRoute /> : <EventLoggingRoute />;
}
