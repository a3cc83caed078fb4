import { PlaceholderCard } from '../../components/placeholder-card';

export function RegisterScreen() {
  return <PlaceholderCard title="User Registration" />;
}
