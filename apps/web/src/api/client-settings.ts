import { clientSettingsSchema, type ClientSettings } from '@bathylog/shared';
import { api, serverRoot } from './client';

/** Runtime settings served by the server (GET /sealog-server/client_settings). */
export const clientSettingsKeys = { all: ['client_settings'] as const };

export async function getClientSettings(signal?: AbortSignal): Promise<ClientSettings> {
  const raw = await api.get('client_settings', { base: serverRoot, auth: false, signal });
  return clientSettingsSchema.parse(raw);
}
