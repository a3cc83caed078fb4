import { lazy, Suspense } from 'react';
import { useAuth } from '../../lib/auth';
import { useSettings } from '../../lib/settings';

/** The status line, fetched once a session exists (the login screen never loads it). */
export const loadFooterStatus = () => import('./footer-status');
const FooterStatus = lazy(async () => ({ default: (await loadFooterStatus()).FooterStatus }));

/** Fixed footer: ASNAP state and free space (signed in, logging enabled), and the product/licence line. */
export function Footer() {
  const { isAuthenticated } = useAuth();
  const settings = useSettings();
  const showStatus = isAuthenticated && !settings.disableEventLogging;

  return (
    <footer
      className="app-footer d-flex flex-wrap justify-content-between align-items-center gap-2"
      data-testid="app-footer"
    >
      <div className="d-flex gap-3">
        {showStatus && (
          <Suspense fallback={null}>
            <FooterStatus />
          </Suspense>
        )}
      </div>
      <div className="text-secondary">
        {/* The product link stays on the ship: the server's own API documentation. */}
        <a href="/sealog-server/documentation" target="_blank" rel="noreferrer">
          Bathylog
        </a>{' '}
        is licensed under the{' '}
        <a href="https://opensource.org/license/mit" target="_blank" rel="noreferrer">
          MIT
        </a>{' '}
        public license
      </div>
    </footer>
  );
}
