import { useQuery } from '@tanstack/react-query';
import {
  createdDeviceKeySchema,
  deviceKeySchema,
  type CreatedDeviceKey,
  type CreateDeviceKey,
  type DeviceKey,
} from '@bathylog/shared';
import { z } from 'zod/mini';
import { api, getList } from './client';

/** Device keys (admin; docs/screens.md#device-keys). */
export const deviceKeyKeys = {
  all: ['device_keys'] as const,
  list: () => [...deviceKeyKeys.all, 'list'] as const,
};

export async function getDeviceKeys(signal?: AbortSignal): Promise<DeviceKey[]> {
  return z.array(deviceKeySchema).parse(await getList<DeviceKey>('device_keys', { signal }));
}

/** Answers the new key with the key itself: shown once, never again. */
export async function createDeviceKey(body: CreateDeviceKey): Promise<CreatedDeviceKey> {
  return createdDeviceKeySchema.parse(await api.post('device_keys', body));
}

export async function revokeDeviceKey(id: string): Promise<void> {
  await api.delete(`device_keys/${id}`);
}

export function useDeviceKeys() {
  return useQuery({ queryKey: deviceKeyKeys.list(), queryFn: ({ signal }) => getDeviceKeys(signal) });
}
