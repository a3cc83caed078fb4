import { useQuery } from '@tanstack/react-query';
import type {
  AuxBackfillRequest,
  AuxBackfillResult,
  AuxManager,
  AuxManagerHealth,
  AuxManagerStatus,
  CreateAuxManager,
  UpdateAuxManager,
} from '@bathylog/shared';
import { api, getList } from './client';

/**
 * Built-in aux-data managers (admin; docs/aux-managers.md): the list with live health, their edits, and
 * backfill. The answers are taken as typed: the server checks each against its response schema.
 */
export const auxManagerKeys = {
  all: ['aux_managers'] as const,
  list: () => [...auxManagerKeys.all, 'list'] as const,
  status: () => [...auxManagerKeys.all, 'status'] as const,
};

export async function getAuxManagers(signal?: AbortSignal): Promise<AuxManager[]> {
  return getList<AuxManager>('aux_managers', { signal });
}

export async function getAuxManagerStatus(signal?: AbortSignal): Promise<AuxManagerStatus> {
  return api.get<AuxManagerStatus>('aux_managers/status', { signal });
}

export async function createAuxManager(body: CreateAuxManager): Promise<AuxManager> {
  return api.post<AuxManager>('aux_managers', body);
}

export async function updateAuxManager(id: string, body: UpdateAuxManager): Promise<AuxManager> {
  return api.patch<AuxManager>(`aux_managers/${encodeURIComponent(id)}`, body);
}

export async function deleteAuxManager(id: string): Promise<void> {
  await api.delete(`aux_managers/${encodeURIComponent(id)}`);
}

export async function backfillAuxData(body: AuxBackfillRequest): Promise<AuxBackfillResult> {
  return api.post<AuxBackfillResult>('aux_managers/backfill', body);
}

export function useAuxManagers() {
  return useQuery({ queryKey: auxManagerKeys.list(), queryFn: ({ signal }) => getAuxManagers(signal) });
}

/** Writes one manager's pushed health into the cached list. */
export function mergeAuxHealth(list: AuxManager[] | undefined, health: AuxManagerHealth): AuxManager[] | undefined {
  if (!list) return list;
  const at = list.findIndex((m) => m.id === health.id);
  if (at === -1) return list;
  const next = list.slice();
  next[at] = { ...next[at]!, health };
  return next;
}
