import { rm, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { PeriodicTask } from '../lib/periodic-task.js';
import { backupAttemptFile, createBackup, listBackups } from '../db/backup.js';

/** The folder name of a scheduled backup: its UTC time, sortable. */
function backupName(at: Date): string {
  return `bathylog-${at.toISOString().replace(/[:.]/g, '-')}`;
}

/**
 * Scheduled backups: every backups.intervalMinutes the leading server process writes a backup
 * into backups.folder and keeps the newest backups.keep of them. The last attempt's outcome is
 * kept beside them, so every process (and `bathylog`) can report it.
 */
export class BackupScheduler {
  private readonly task = new PeriodicTask(() => this.backUp());

  constructor(private readonly ctx: AppContext) {}

  private get settings() {
    return this.ctx.config.backups;
  }

  async start(): Promise<void> {
    this.task.start(this.settings.intervalMinutes * 60_000);
  }

  runOnce(): Promise<void> {
    return this.task.runOnce();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  private async backUp(): Promise<void> {
    const folder = this.settings.folder!;
    const at = new Date();
    let error: string | null = null;
    try {
      await mkdir(folder, { recursive: true });
      await createBackup(this.ctx.config, path.join(folder, backupName(at)));
      const all = await listBackups(folder);
      for (const old of all.slice(this.settings.keep)) await rm(old.dir, { recursive: true, force: true });
    } catch (err) {
      error = (err as Error).message;
      this.ctx.log.error({ err }, 'scheduled backup failed');
    }
    try {
      await writeFile(path.join(folder, backupAttemptFile), JSON.stringify({ at: at.toISOString(), error }));
    } catch (err) {
      this.ctx.log.error({ err }, 'could not record the backup attempt');
    }
  }
}
