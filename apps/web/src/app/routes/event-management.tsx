import { EventManagementScreen } from '../../features/event-management/event-management-screen';

/** /event_management — filtered event search (seed 001 §2.2). */
export function EventManagementRoute() {
  return <EventManagementScreen />;
}
