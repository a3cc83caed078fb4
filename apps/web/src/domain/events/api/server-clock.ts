import { serverRoot } from '../../../api/client';

/**
 * Events get their time in the browser at the click (so an event logged offline keeps it), but
 * the ship's clock is the server's: navigation and frame grabs are matched to events by time, and
 * the server lists no event "from the future". A laptop whose clock is off would log every event
 * off by as much. So the console reads the server's clock (the HTTP Date header) and corrects
 * click times by the difference when it is clearly more than the header's one-second resolution.
 */
let offsetMs = 0;

/** Differences below this are within what the Date header can tell; they are left alone. */
export const clockToleranceMs = 2000;

/** The offset to apply, from one exchange: server Date header, and the local times around it. */
export function clockOffset(serverDate: string | null, sentAt: number, receivedAt: number): number | null {
  if (!serverDate) return null;
  const server = Date.parse(serverDate);
  if (Number.isNaN(server)) return null;
  // The header is truncated to the second: the middle of that second is the best guess.
  const offset = server + 500 - (sentAt + receivedAt) / 2;
  return Math.abs(offset) > clockToleranceMs ? Math.round(offset) : 0;
}

/** Asks the server for its time; keeps the last good offset when it cannot be reached. */
export async function syncServerClock(): Promise<number> {
  try {
    const sentAt = Date.now();
    const res = await fetch(`${serverRoot}/client_settings`, { method: 'HEAD', cache: 'no-store' });
    const receivedAt = Date.now();
    const offset = clockOffset(res.headers.get('date'), sentAt, receivedAt);
    if (offset !== null) offsetMs = offset;
  } catch {
    // Offline: the last known offset stays.
  }
  return offsetMs;
}

/** Now, by the server's clock as last measured. */
export function serverNow(): Date {
  return new Date(Date.now() + offsetMs);
}
