import type { WsChannel } from '@bathylog/shared';
import type { TestApp } from './test-app.js';

/** Setup shared by the cruise, lowering and file route tests. */

type Json = Record<string, unknown>;

/** Removes every cruise and lowering (and their folders) so each test starts from none. */
export async function clearRecords(t: TestApp, admin: string): Promise<void> {
  await t.api('DELETE', '/cruises/all', { token: admin });
  await t.api('DELETE', '/lowerings/all', { token: admin });
}

/** Collects what a channel receives while a test runs (the bus may deliver asynchronously); call `off` after. */
export function captureChannel(t: TestApp, channel: WsChannel): { seen: Json[]; off: () => void } {
  const seen: Json[] = [];
  const off = t.ctx.bus.subscribe(channel, (p) => seen.push(p as Json));
  return { seen, off };
}
