import type { ClientSettings } from '@bathylog/shared';
import { api, serverRoot } from './client';

/** Runtime settings served by the server (GET /sealog-server/client_settings). */
export const clientSettingsKeys = { all: ['client_settings'] as const };

/**
 * Not parsed with `clientSettingsSchema` here, unlike other fetchers: the server builds this object
 * with that very schema from its configuration (apps/server/src/config.ts, defaults filled in), and
 * the first screen (login) should not load zod for it (the login bundle budget of
 * docs/lean-client.md). A body that is not a settings object fails loudly all the same.
 */
export async function getClientSettings(signal?: AbortSignal): Promise<ClientSettings> {
  const raw = await api.get<ClientSettings>('client_settings', { base: serverRoot, auth: false, signal });
  if (typeof raw !== 'object' || raw === null || typeof raw.headerTitle !== 'string') {
    throw new Error('The server sent no client settings');
  }
  return raw;
}
