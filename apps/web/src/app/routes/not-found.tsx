import { Link } from 'wouter';
import { PlaceholderCard } from '../../components/placeholder-card';

export function NotFoundRoute() {
  return (
    <PlaceholderCard title="Page not found">
      There is no screen at this address. <Link to="/">Go to the start page</Link>.
    </PlaceholderCard>
  );
}
