import { useEffect, type ReactNode } from 'react';
import { Link, Redirect, useLocation } from 'wouter';
import { validateToken } from '../api/auth';
import { isApiError } from '../api/client';
import { useArchiveMode } from '../lib/archive';
import { useAuth } from '../lib/auth';

/**
 * Protected screens (docs/screens.md#protected-screens): without a session go to /login; with one,
 * validate the token on every screen change and log out when the server rejects it. A network
 * failure does not log out: at sea the link drops and the logging console must keep its session.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated, sessionKey, logout } = useAuth();
  const [pathname] = useLocation();

  useEffect(() => {
    if (!sessionKey) return;
    const controller = new AbortController();
    validateToken(controller.signal).catch((err: unknown) => {
      // An expired or revoked session already logged out with its message (api/client.ts).
      if (isApiError(err) && (err.statusCode === 401 || err.statusCode === 403)) logout();
    });
    return () => controller.abort();
  }, [pathname, sessionKey, logout]);

  if (!isAuthenticated) return <Redirect to="/login" replace />;
  return children;
}

/** /login: an authenticated user is sent home, on opening and on any later change. */
export function RedirectIfAuthenticated({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  if (isAuthenticated) return <Redirect to="/" replace />;
  return children;
}

/**
 * The cruise menu, the review screens and the permalinks: signed-in users as behind RequireAuth;
 * with the public archive on, an anonymous visitor reads them too, under a header saying so
 * (docs/public-archive.md#in-the-web-client). The server decides what the visitor sees.
 */
export function RequireAuthOrArchive({ children }: { children: ReactNode }) {
  const archive = useArchiveMode();
  if (!archive) return <RequireAuth>{children}</RequireAuth>;
  return (
    <>
      <section className="alert alert-info py-2 d-flex align-items-center" aria-labelledby="archive-heading">
        <h2 id="archive-heading" className="h6 mb-0 me-auto">
          Public archive
        </h2>
        <span className="me-3">Published cruises and dives, read-only.</span>
        <Link to="/login" className="alert-link">
          Log in
        </Link>
      </section>
      {children}
    </>
  );
}
