import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { LeaderElection } from '../db/leader-election.js';
import { AuxManagersService } from '../modules/aux-managers/aux-managers.service.js';
import { AuxManagerRunner } from './aux-managers.js';
import { AsnapService, logAsnapThroughEvents, type LogAsnapEvent } from './asnap.js';
import { BackupScheduler } from './backup-scheduler.js';
import { ChecklistMonitor } from './checklist-monitor.js';
import { CompletenessWatcher } from './completeness.js';
import { FreeSpaceMonitor } from './free-space.js';
import { ShipFollowers } from './ship-follower.js';
import { RecordingsWatcher } from './recordings-watcher.js';

export interface Jobs {
  leader: LeaderElection;
  freeSpace: FreeSpaceMonitor;
  asnap: AsnapService | null;
  checklists: ChecklistMonitor;
  completeness: CompletenessWatcher;
  ships: ShipFollowers;
  auxManagers: AuxManagerRunner;
  recordings: RecordingsWatcher;
}

export interface JobsOptions {
  /** How the built-in ASNAP logs its events (tests); default: through the events service. */
  logAsnapEvent?: LogAsnapEvent;
}

/**
 * The background jobs (free-space monitor, built-in ASNAP, scheduled backups, checklist monitor,
 * completeness watcher, ship followers, aux-data managers): singletons, run by the leading process only
 * (db/leader-election.ts). Started when the server is ready, stopped when it closes.
 */
export function registerJobs(app: FastifyInstance, ctx: AppContext, opts: JobsOptions = {}): Jobs {
  const leader = new LeaderElection(ctx.database, ctx.log);
  const freeSpace = new FreeSpaceMonitor(ctx);
  const asnap = ctx.config.asnap.enabled
    ? new AsnapService(ctx, opts.logAsnapEvent ?? logAsnapThroughEvents(ctx))
    : null;
  const backups = new BackupScheduler(ctx);
  const checklists = new ChecklistMonitor(ctx);
  const completeness = new CompletenessWatcher(ctx);
  const ships = new ShipFollowers(ctx);
  const auxManagers = new AuxManagerRunner(ctx);
  const recordings = new RecordingsWatcher(ctx);
  const jobs = [freeSpace, asnap, backups, checklists, completeness, ships, auxManagers, recordings];
  const startJobs = () => Promise.all(jobs.map((job) => job?.start()));
  const stopJobs = () => Promise.all(jobs.map((job) => job?.stop()));

  app.addHook('onReady', async () => {
    // A vessel's managers file is checked before the server takes requests: an invalid one stops the start.
    if (ctx.config.auxManagers.file) await new AuxManagersService(ctx).syncFile(ctx.config.auxManagers.file);
    await leader.start();
    // The first free-space reading is in place before the server takes requests.
    if (leader.isLeader) await startJobs();
    leader.onChange((leading) => {
      (leading ? startJobs() : stopJobs()).catch((err: unknown) => ctx.log.error({ err }, 'singleton jobs failed'));
    });
  });

  app.addHook('preClose', async () => {
    await stopJobs();
    await leader.stop();
  });

  return { leader, freeSpace, asnap, checklists, completeness, ships, auxManagers, recordings };
}
