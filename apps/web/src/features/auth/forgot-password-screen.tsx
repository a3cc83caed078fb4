import { PlaceholderCard } from '../../components/placeholder-card';

export function ForgotPasswordScreen() {
  return <PlaceholderCard title="Forgot Password" />;
}
