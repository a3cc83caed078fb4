import { statusVarNames, useCustomVars } from '../../api/custom-vars';
import { useLiveStatusVars } from '../../api/use-realtime';
import { useAuth } from '../../lib/auth';
import { formatBytes } from '../../lib/format';
import { useSettings } from '../../lib/settings';

/** Free-space colour (seed 000 §4): red by default, amber under 90 %, green under 75 %. */
export function freeSpaceClass(percentage: number | null): string {
  if (percentage === null || !Number.isFinite(percentage)) return 'text-danger';
  if (percentage < 75) return 'text-success';
  if (percentage < 90) return 'text-warning';
  return 'text-danger';
}

/**
 * Fixed footer: ASNAP state and the server's free space (authenticated, logging enabled), and
 * the product/licence line. Values come from the custom-vars query; the realtime client keeps
 * that query's cache live from /ws/status/updateCustomVars.
 */
export function Footer() {
  const { isAuthenticated } = useAuth();
  const settings = useSettings();
  const showStatus = isAuthenticated && !settings.disableEventLogging;
  const { data } = useCustomVars(statusVarNames, { enabled: showStatus });
  useLiveStatusVars(showStatus);
  const value = (name: string) => data?.find((v) => v.custom_var_name === name)?.custom_var_value;

  const asnap = value('asnapStatus');
  const bytesText = value('freeSpaceInBytes');
  const pctText = value('freeSpacePercentage');
  const bytes = bytesText !== undefined && bytesText !== '' ? Number(bytesText) : null;
  const pct = pctText !== undefined && pctText !== '' ? Number(pctText) : null;

  return (
    <footer
      className="app-footer d-flex flex-wrap justify-content-between align-items-center gap-2"
      data-testid="app-footer"
    >
      <div className="d-flex gap-3">
        {showStatus && (
          <>
            <span data-testid="footer-asnap">
              ASNAP: <span className={asnap === 'On' ? 'text-success' : 'text-danger'}>{asnap ?? 'Unknown'}</span>
            </span>
            {bytes !== null && Number.isFinite(bytes) && (
              <span data-testid="footer-free-space">
                Free Space: <span className={freeSpaceClass(pct)}>{formatBytes(bytes)}</span>
              </span>
            )}
          </>
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
