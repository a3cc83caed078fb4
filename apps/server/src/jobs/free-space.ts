import { statfs } from 'node:fs/promises';
import { customVarNames } from '@bathylog/shared';
import type { AppContext } from '../context.js';
import { PeriodicTask } from '../lib/periodic-task.js';
import { CustomVarsService } from '../modules/custom-vars/custom-vars.service.js';

export interface DiskUsage {
  /** Bytes an unprivileged process can still write. */
  freeBytes: number;
  /** Percentage of the disk in use, 0-100, rounded as `df` shows it. */
  usedPercentage: number;
}

/** Measures the disk holding `folder`. */
export async function measureDisk(folder: string): Promise<DiskUsage> {
  const s = await statfs(folder);
  const freeBytes = s.bavail * s.bsize;
  const used = (s.blocks - s.bfree) * s.bsize;
  // df's Use%: used against what users can use (blocks reserved for root do not count).
  const usable = used + freeBytes;
  const usedPercentage = usable > 0 ? Math.ceil((used / usable) * 100) : 100;
  return { freeBytes, usedPercentage: Math.min(100, Math.max(0, usedPercentage)) };
}

/**
 * The free-space monitor (docs/wire.md#free-space-monitor, with its defect 15 fixed: the NEW reading is pushed).
 * Every freeSpaceIntervalSeconds, and once at start, it measures the data folder's disk and sets
 * freeSpaceInBytes (free bytes) and freeSpacePercentage (the percentage USED, which is what the
 * footer's colours assume: green < 75, amber < 90, red otherwise), each pushed on updateCustomVars.
 */
export class FreeSpaceMonitor {
  private readonly task = new PeriodicTask(() => this.read());

  constructor(
    private readonly ctx: AppContext,
    private readonly measure: (folder: string) => Promise<DiskUsage> = measureDisk,
  ) {}

  /** Runs once now, then every interval. */
  async start(): Promise<void> {
    const interval = this.ctx.config.freeSpaceIntervalSeconds * 1000;
    if (interval === 0) return;
    this.task.start(interval);
    await this.runOnce();
  }

  /** One reading; errors are logged, never thrown (a missing var must not stop the server). */
  runOnce(): Promise<void> {
    return this.task.runOnce();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  private async read(): Promise<void> {
    try {
      const usage = await this.measure(this.ctx.paths.data);
      const vars = new CustomVarsService(this.ctx);
      // Both readings go out, in this order, even when the first cannot be stored (a full disk).
      let failure: unknown = null;
      for (const [name, value] of [
        [customVarNames.freeSpaceInBytes, String(usage.freeBytes)],
        [customVarNames.freeSpacePercentage, String(usage.usedPercentage)],
      ] as const) {
        try {
          await vars.setByServer(name, value);
        } catch (err) {
          failure ??= err;
        }
      }
      if (failure) throw failure;
    } catch (err) {
      this.ctx.log.warn({ err }, 'free-space reading failed');
    }
  }
}
