import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { atLowPriority } from './low-priority.js';
import { runFfmpeg } from './run-ffmpeg.js';
import { mediaInput, protocolWhitelist, type MediaSource } from './media-uri.js';

export class FrameGrabError extends Error {}

export interface FrameGrabberOptions {
  ffmpeg: string;
  /** Folder of the frame cache (created when missing). */
  cacheDir: string;
  /** Largest total size of the cache in bytes; the least recently used frames go first. */
  cacheBytes: number;
  /** ffmpeg runs at once, in all. */
  concurrency: number;
  timeoutMs: number;
}

/** Which queue a grab waits in: a person's request goes before a lowering-wide job's. */
export type GrabLane = 'interactive' | 'batch';

export interface GrabRequest {
  source: MediaSource;
  /** Seconds into the recording (ms precision). */
  offset_ms: number;
  deinterlace: boolean;
  lane: GrabLane;
}

export interface GrabbedFrame {
  /** The JPEG in the cache (copy it before use: the cache may evict it later). */
  file: string;
  cached: boolean;
}

interface Waiting {
  run: () => void;
}

/**
 * Exact frames from recordings with ffmpeg (docs/video.md#frame-grabs): `-ss` before `-i` (a
 * fast keyframe seek, then decoding up to the exact time, so the frame shown at that moment),
 * one frame, de-interlaced (yadif) when ffprobe said the stream is interlaced, killed past a
 * time-out. At most `concurrency` ffmpeg run at once. Background work (the lowering-wide job's
 * grabs, proxies being made) runs one at a time at low priority (docs/video.md#background-work)
 * and a person's request waiting goes first, so requests and the console are not delayed behind
 * it. Frames are cached on disk by (source, offset, de-interlace), bounded in size.
 */
export class FrameGrabber {
  private running = 0;
  private runningBatch = 0;
  private readonly interactive: Waiting[] = [];
  private readonly batch: Waiting[] = [];
  private readonly inFlight = new Map<string, Promise<GrabbedFrame>>();
  private cacheSize: number | null = null;
  private readonly cacheEntries = new Map<string, { size: number; used: number }>();

  constructor(private readonly opts: FrameGrabberOptions) {}

  /** How many ffmpeg run now, and how many grabs wait (the bench reads it). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.interactive.length + this.batch.length };
  }

  private pump(): void {
    while (this.running < this.opts.concurrency) {
      const next =
        this.interactive.shift() ??
        (this.runningBatch === 0 && this.interactive.length === 0 ? this.batch.shift() : undefined);
      if (!next) return;
      next.run();
    }
  }

  private slot<T>(lane: GrabLane, work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = () => {
        this.running++;
        if (lane === 'batch') this.runningBatch++;
        work()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            if (lane === 'batch') this.runningBatch--;
            this.pump();
          });
      };
      (lane === 'interactive' ? this.interactive : this.batch).push({ run });
      this.pump();
    });
  }

  /**
   * Runs background work (a proxy being made) in the batch lane: after every waiting request,
   * never beside another background run.
   */
  background<T>(work: () => Promise<T>): Promise<T> {
    return this.slot('batch', work);
  }

  private key(req: GrabRequest): string {
    const input = (req.source.kind === 'url' && req.source.name) || mediaInput(req.source);
    return createHash('sha256')
      .update(`${input}\n${Math.round(req.offset_ms)}\n${req.deinterlace ? 1 : 0}`)
      .digest('hex')
      .slice(0, 32);
  }

  /** The frame at `offset_ms` of the source, from the cache or from ffmpeg. */
  async grab(req: GrabRequest): Promise<GrabbedFrame> {
    await this.loadCache();
    const key = this.key(req);
    const file = path.join(this.opts.cacheDir, `${key}.jpg`);
    const hit = this.cacheEntries.get(key);
    if (hit) {
      hit.used = Date.now();
      await utimes(file, new Date(), new Date()).catch(() => undefined);
      return { file, cached: true };
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const p = this.slot(req.lane, () => this.run(req, file)).then(async () => {
      const { size } = await stat(file);
      this.cacheEntries.set(key, { size, used: Date.now() });
      this.cacheSize! += size;
      await this.evict(key);
      return { file, cached: false };
    });
    this.inFlight.set(key, p);
    try {
      return await p;
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async run(req: GrabRequest, file: string): Promise<void> {
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp.jpg`;
    const args = [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-protocol_whitelist',
      protocolWhitelist(req.source),
      '-ss',
      (req.offset_ms / 1000).toFixed(3),
      '-i',
      mediaInput(req.source),
      '-map',
      '0:v:0',
      ...(req.deinterlace ? ['-vf', 'yadif'] : []),
      '-frames:v',
      '1',
      '-q:v',
      '2',
      '-f',
      'image2',
      '-y',
      tmp,
    ];
    await runFfmpeg(
      req.lane === 'batch' ? atLowPriority(this.opts.ffmpeg, args) : { command: this.opts.ffmpeg, args },
      {
        timeoutMs: this.opts.timeoutMs,
        fail: (message) => new FrameGrabError(message),
        exitMessage: () => 'ffmpeg could not read a frame at that time',
      },
    );
    try {
      const { size } = await stat(tmp);
      // ffmpeg exits 0 without a frame when the time lies past the last frame.
      if (size === 0) throw new FrameGrabError('no frame at that time');
    } catch (err) {
      await rm(tmp, { force: true });
      throw err instanceof FrameGrabError ? err : new FrameGrabError('no frame at that time');
    }
    await rename(tmp, file);
  }

  private async loadCache(): Promise<void> {
    if (this.cacheSize !== null) return;
    await mkdir(this.opts.cacheDir, { recursive: true });
    let total = 0;
    for (const name of await readdir(this.opts.cacheDir)) {
      const full = path.join(this.opts.cacheDir, name);
      if (name.endsWith('.tmp.jpg')) {
        await rm(full, { force: true });
        continue;
      }
      if (!/^[0-9a-f]{32}\.jpg$/.test(name)) continue;
      const s = await stat(full).catch(() => null);
      if (!s) continue;
      this.cacheEntries.set(name.slice(0, 32), { size: s.size, used: s.mtimeMs });
      total += s.size;
    }
    this.cacheSize ??= total;
  }

  private async evict(keep: string): Promise<void> {
    if (this.cacheSize! <= this.opts.cacheBytes) return;
    const oldest = [...this.cacheEntries].filter(([k]) => k !== keep).sort((a, b) => a[1].used - b[1].used);
    for (const [key, entry] of oldest) {
      if (this.cacheSize! <= this.opts.cacheBytes) break;
      this.cacheEntries.delete(key);
      this.cacheSize! -= entry.size;
      await rm(path.join(this.opts.cacheDir, `${key}.jpg`), { force: true });
    }
  }
}
