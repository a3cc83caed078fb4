import { useSettings } from '../../lib/settings';
import { CruiseMenuRoute } from './cruise-menu';
import { EventLoggingRoute } from './event-logging';

/** `/`: the logging console, or the cruise menu when event logging is disabled (seed 000 §2). */
export function HomeRoute() {
  const { disableEventLogging } = useSettings();
  return disableEventLogging ? <CruiseMenuRoute /> : <EventLoggingRoute />;
}
