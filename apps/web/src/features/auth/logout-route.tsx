import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { useAuth } from '../../lib/auth';

/** /logout: clears the session and profile, then /login (docs/screens.md#session). */
export function LogoutRoute() {
  const { logout, isAuthenticated } = useAuth();
  useEffect(() => {
    if (isAuthenticated) logout();
  }, [isAuthenticated, logout]);
  if (isAuthenticated) return null;
  return <Navigate to="/login" replace />;
}
