import { PlaceholderCard } from '../../components/placeholder-card';

export function ProfileScreen() {
  return <PlaceholderCard title="User Profile" />;
}
