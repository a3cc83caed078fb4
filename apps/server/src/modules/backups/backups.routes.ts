import { backupStatusSchema, type BackupStatus } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import type { ApiInstance } from '../../plugins/types.js';
import { backupStatus } from './backups.service.js';

/** Backups (docs/storage.md#backups): admins see when the last one was made (the Tasks screen shows it). */
export function backupsRoutes(app: ApiInstance, ctx: AppContext): void {
  const admin = { auth: true, scopes: ['admin'] } as const;
  app.get(
    '/backups/status',
    { config: admin, schema: { tags: ['backups'], response: { 200: backupStatusSchema } } },
    (): Promise<BackupStatus> => backupStatus(ctx),
  );
}
