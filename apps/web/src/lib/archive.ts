import { formatListDateTime } from '@bathylog/shared';
import { useAuth } from './auth';
import { useSettings } from './settings';

/**
 * Archive mode: nobody is signed in and the server's public archive is on, so the cruise menu and
 * the review screens show the published cruises and dives read-only (docs/public-archive.md).
 */
export function useArchiveMode(): boolean {
  const { isAuthenticated } = useAuth();
  const settings = useSettings();
  return !isAuthenticated && settings.publicArchive;
}

/**
 * "Embargoed until <date>" for a record whose embargo has not ended yet (the server sends the
 * date it opens with its stub), or null when it is open.
 */
export function embargoText(until: string | null | undefined, now: number = Date.now()): string | null {
  if (!until) return null;
  const ms = Date.parse(until);
  if (Number.isNaN(ms) || ms <= now) return null;
  return `Embargoed until ${formatListDateTime(ms)} UTC`;
}
