import { PlaceholderCard } from '../../components/placeholder-card';

/** /tasks — admin tasks (seed 000 §2); the tasks feature replaces this placeholder. */
export function TasksRoute() {
  return <PlaceholderCard title={'Tasks'} />;
}
