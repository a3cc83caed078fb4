import { PlaceholderCard } from '../../components/placeholder-card';

/** /event_templates — template administration (seed 000 §2); the event-templates feature replaces this placeholder. */
export function EventTemplatesRoute() {
  return <PlaceholderCard title={'Event Templates'} />;
}
