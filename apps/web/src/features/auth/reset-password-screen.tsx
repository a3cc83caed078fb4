import { PlaceholderCard } from '../../components/placeholder-card';

export function ResetPasswordScreen() {
  return <PlaceholderCard title="Reset Password" />;
}
