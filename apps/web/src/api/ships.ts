import { useQuery } from '@tanstack/react-query';
import type { CreateShip, Ship, SyncStatus, UpdateShip } from '@bathylog/shared';
import { api, getList, isApiError } from './client';

/**
 * Ship to shore (admin; docs/screens.md#ship-to-shore): the ships this server follows, its own
 * followers. The answers are taken as typed, not parsed again here: the server checks each against
 * its response schema (its tests fail on any other answer), and the client's bundle budget is tight.
 */
export const shipKeys = {
  all: ['ships'] as const,
  list: () => [...shipKeys.all, 'list'] as const,
  syncStatus: () => [...shipKeys.all, 'sync_status'] as const,
};

export async function getShips(signal?: AbortSignal): Promise<Ship[]> {
  return getList<Ship>('ships', { signal });
}

/**
 * Adds a ship. A ship added switched off is paused at once (POST knows no `enabled`), so the shore
 * never contacts a ship its admin meant to leave alone.
 */
export async function createShip(body: CreateShip, enabled = true): Promise<Ship> {
  const ship = await api.post<Ship>('ships', body);
  if (enabled) return ship;
  return updateShip(ship.id, { enabled: false });
}

export async function updateShip(id: string, body: UpdateShip): Promise<Ship> {
  return api.patch<Ship>(`ships/${encodeURIComponent(id)}`, body);
}

export async function deleteShip(id: string): Promise<void> {
  await api.delete(`ships/${encodeURIComponent(id)}`);
}

/** This server as a ship: who follows it. null when the server has no such status (404). */
export async function getSyncStatus(signal?: AbortSignal): Promise<SyncStatus | null> {
  try {
    return await api.get<SyncStatus>('sync/status', { signal });
  } catch (err) {
    if (isApiError(err, 404)) return null;
    throw err;
  }
}

export function useShips() {
  return useQuery({ queryKey: shipKeys.list(), queryFn: ({ signal }) => getShips(signal) });
}

export function useSyncStatus() {
  return useQuery({ queryKey: shipKeys.syncStatus(), queryFn: ({ signal }) => getSyncStatus(signal) });
}

/** Writes one ship's new state (a websocket push) into the cached list, adding it when new. */
export function mergeShip(list: Ship[] | undefined, ship: Ship): Ship[] | undefined {
  if (!list) return list;
  const at = list.findIndex((s) => s.id === ship.id);
  if (at === -1) return [...list, ship];
  const next = list.slice();
  next[at] = ship;
  return next;
}
