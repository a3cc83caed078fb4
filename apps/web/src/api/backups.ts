import { backupStatusSchema, type BackupStatus } from '@bathylog/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';

/** Backups: when the last one was made, shown under the admin tasks; admins only. */
export const backupKeys = { status: ['backups', 'status'] as const };

export async function getBackupStatus(signal?: AbortSignal): Promise<BackupStatus> {
  return backupStatusSchema.parse(await api.get('backups/status', signal ? { signal } : {}));
}

export function useBackupStatus() {
  return useQuery({ queryKey: backupKeys.status, queryFn: ({ signal }) => getBackupStatus(signal) });
}
