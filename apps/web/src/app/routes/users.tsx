import { PlaceholderCard } from '../../components/placeholder-card';

/** /users — user administration (seed 000 §2); the users feature replaces this placeholder. */
export function UsersRoute() {
  return <PlaceholderCard title={'Users'} />;
}
