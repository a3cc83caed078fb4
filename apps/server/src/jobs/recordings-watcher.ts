import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { PeriodicTask } from '../lib/periodic-task.js';
import { frameGrabberFor, recordingNamePattern, RecordingsService } from '../modules/recordings/recordings.service.js';

/**
 * The recordings folder watcher (docs/video.md#registering-recordings): recorders (ffmpeg's segment
 * muxer with `-strftime 1`) write `cam1_20240101T000000Z.mp4` files into a folder under the data
 * folder; each file whose size has stopped changing is registered for the lowering holding its
 * start, ffprobe reading the rest. Scans every `watchIntervalSeconds`, and soon after fs.watch
 * reports a change. A file no lowering holds yet is tried again at each scan.
 */
export class RecordingsWatcher {
  private readonly task = new PeriodicTask(() => this.scan());
  private readonly seen = new Map<string, string>();
  private readonly done = new Set<string>();
  private watcher: FSWatcher | null = null;
  private soon: NodeJS.Timeout | null = null;
  private readonly service: RecordingsService;
  readonly folder: string | null;

  constructor(private readonly ctx: AppContext) {
    this.service = new RecordingsService(ctx, frameGrabberFor(ctx));
    const configured = ctx.config.video.watchFolder;
    const folder = configured ? path.resolve(ctx.paths.data, configured) : null;
    const inside = folder && (folder + path.sep).startsWith(path.resolve(ctx.paths.data) + path.sep);
    if (folder && !inside)
      ctx.log.error('BATHYLOG_RECORDINGS_WATCH must name a folder inside the data folder: not watching');
    this.folder = inside ? folder : null;
  }

  async start(): Promise<void> {
    if (!this.folder) return;
    await mkdir(this.folder, { recursive: true });
    this.task.start(this.ctx.config.video.watchIntervalSeconds * 1000);
    try {
      this.watcher = watch(this.folder, { recursive: true }, () => {
        this.soon ??= setTimeout(() => {
          this.soon = null;
          void this.task.runOnce();
        }, 1000);
        this.soon.unref();
      });
    } catch (err) {
      this.ctx.log.warn({ err }, 'recordings folder: fs.watch unavailable, scanning on the interval only');
    }
    await this.task.runOnce();
  }

  async stop(): Promise<void> {
    this.watcher?.close();
    this.watcher = null;
    if (this.soon) clearTimeout(this.soon);
    this.soon = null;
    await this.task.stop();
  }

  /** One scan (tests call it). */
  runOnce(): Promise<void> {
    return this.task.runOnce();
  }

  private async files(dir: string, depth: number): Promise<string[]> {
    const out: string[] = [];
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < 3) out.push(...(await this.files(full, depth + 1)));
      else if (entry.isFile() && recordingNamePattern.test(entry.name)) out.push(full);
    }
    return out;
  }

  private async scan(): Promise<void> {
    if (!this.folder) return;
    try {
      for (const file of await this.files(this.folder, 0)) {
        const rel = path.relative(this.ctx.paths.data, file).split(path.sep).join('/');
        if (this.done.has(rel)) continue;
        const s = await stat(file).catch(() => null);
        if (!s) continue;
        const mark = `${s.size}:${s.mtimeMs}`;
        const stable = this.seen.get(rel) === mark && Date.now() - s.mtimeMs > 1000;
        this.seen.set(rel, mark);
        if (!stable) continue;
        try {
          const result = await this.service.registerFound(rel);
          if (result === 'registered') this.ctx.log.info({ file: rel }, 'recording registered from the watched folder');
          if (result !== 'no_lowering') this.done.add(rel);
        } catch (err) {
          this.ctx.log.warn({ err, file: rel }, 'recording in the watched folder not registered');
          this.done.add(rel);
        }
      }
    } catch (err) {
      this.ctx.log.warn({ err }, 'recordings folder scan failed');
    }
  }
}
