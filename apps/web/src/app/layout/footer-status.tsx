import { statusVarNames, useCustomVars } from '../../api/custom-vars';
import { useLiveStatusVars } from '../../api/use-realtime';
import { formatBytes } from '../../lib/format';
import { FooterAuxHealth } from './footer-aux-health';
import { FooterCompleteness } from './footer-completeness';

/** Free-space colour (docs/screens.md#footer-status): red by default, amber under 90 %, green under 75 %. */
export function freeSpaceClass(percentage: number | null): string {
  if (percentage === null || !Number.isFinite(percentage)) return 'text-danger';
  if (percentage < 75) return 'text-success';
  if (percentage < 90) return 'text-warning';
  return 'text-danger';
}

/**
 * ASNAP state and the server's free space, for the footer while someone is signed in. Values come
 * from the custom-vars query; the realtime client keeps that query's cache live from
 * /ws/status/updateCustomVars. Loaded only when shown (footer.tsx).
 */
export function FooterStatus() {
  const { data } = useCustomVars(statusVarNames);
  useLiveStatusVars(true);
  const value = (name: string) => data?.find((v) => v.custom_var_name === name)?.custom_var_value;

  const asnap = value('asnapStatus');
  const bytesText = value('freeSpaceInBytes');
  const pctText = value('freeSpacePercentage');
  const bytes = bytesText !== undefined && bytesText !== '' ? Number(bytesText) : null;
  const pct = pctText !== undefined && pctText !== '' ? Number(pctText) : null;

  return (
    <>
      <span data-testid="footer-asnap">
        ASNAP: <span className={asnap === 'On' ? 'text-success' : 'text-danger'}>{asnap ?? 'Unknown'}</span>
      </span>
      {bytes !== null && Number.isFinite(bytes) && (
        <span data-testid="footer-free-space">
          Free Space: <span className={freeSpaceClass(pct)}>{formatBytes(bytes)}</span>
        </span>
      )}
      <FooterCompleteness />
      <FooterAuxHealth />
    </>
  );
}
