import { useEffect } from 'react';
import { Redirect } from 'wouter';
import { useAuth } from '../../lib/auth';

/** /logout: clears the session and profile, then /login (docs/screens.md#session). */
export function LogoutRoute() {
  const { logout, isAuthenticated } = useAuth();
  useEffect(() => {
    if (isAuthenticated) logout();
  }, [isAuthenticated, logout]);
  if (isAuthenticated) return null;
  return <Redirect to="/login" replace />;
}
