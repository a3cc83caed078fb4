import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { validateToken } from '../api/auth';
import { isApiError } from '../api/client';
import { useAuth } from '../lib/auth';

/**
 * Protected screens (docs/screens.md#protected-screens): without a session go to /login; with one,
 * validate the token on every screen change and log out when the server rejects it. A network
 * failure does not log out: at sea the link drops and the logging console must keep its session.
 */
export function RequireAuth() {
  const { isAuthenticated, sessionKey, logout } = useAuth();
  const { pathname } = useLocation();

  useEffect(() => {
    if (!sessionKey) return;
    const controller = new AbortController();
    validateToken(controller.signal).catch((err: unknown) => {
      // An expired or revoked session already logged out with its message (api/client.ts).
      if (isApiError(err) && (err.statusCode === 401 || err.statusCode === 403)) logout();
    });
    return () => controller.abort();
  }, [pathname, sessionKey, logout]);

  if (!isAuthenticated) return <Navigate to="/login" replace />;
  return <Outlet />;
}

/** /login: an authenticated user is sent home, on opening and on any later change. */
export function RedirectIfAuthenticated() {
  const { isAuthenticated } = useAuth();
  if (isAuthenticated) return <Navigate to="/" replace />;
  return <Outlet />;
}
