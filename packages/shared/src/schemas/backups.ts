import { z } from 'zod/mini';

/** GET /backups/status (admins): the scheduled backups' settings and the newest backup. */
export const backupStatusSchema = z.object({
  /** Scheduled backups are on (an interval is configured). */
  scheduled: z.boolean(),
  intervalMinutes: z.number(),
  keep: z.number(),
  folder: z.string(),
  /** The newest complete backup in the folder (scheduled or by `bathylog backup`), or null. */
  lastBackupAt: z.nullable(z.string()),
  /** The last scheduled attempt's failure, when it failed. */
  lastError: z.nullable(z.string()),
});
export type BackupStatus = z.infer<typeof backupStatusSchema>;
