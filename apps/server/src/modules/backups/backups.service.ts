import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BackupStatus } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { backupAttemptFile, listBackups } from '../../db/backup.js';

/** What the admins' screen shows: settings, newest backup, last scheduled failure. */
export async function backupStatus(ctx: AppContext): Promise<BackupStatus> {
  const { folder, intervalMinutes, keep } = ctx.config.backups;
  const newest = (await listBackups(folder!))[0];
  let lastError: string | null = null;
  const attempt = path.join(folder!, backupAttemptFile);
  if (existsSync(attempt)) {
    try {
      lastError = (JSON.parse(await readFile(attempt, 'utf8')) as { error: string | null }).error;
    } catch {
      lastError = null;
    }
  }
  return {
    scheduled: intervalMinutes > 0,
    intervalMinutes,
    keep,
    folder: folder!,
    lastBackupAt: newest?.createdAt ?? null,
    lastError,
  };
}
