import { EventManagementScreen } from '../../features/event-management/event-management-screen';

/** /event_management — filtered event search (docs/screens.md#event-management). */
export function EventManagementRoute() {
  return <EventManagementScreen />;
}
