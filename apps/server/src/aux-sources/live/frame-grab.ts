import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { AuxSource, ReadingRequest, ReadingResult, SourceHealth } from '../source.js';
import type { SourceDeps } from './config.js';
import { LiveHealth, LiveSourceError } from './health.js';

/** A camera's name as the aux record shows it (`camera_name`) and as its keys start (`<camera>.filename`). */
export const cameraName = z
  .string({ message: 'camera must be a name' })
  .min(1, 'camera must not be empty')
  .max(64, 'camera must be at most 64 characters')
  .refine(
    (c) => ![...c].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127),
    'camera must not hold control characters',
  );

/** The file name's start; the camera's name (letters, digits, `-`, `_`) and `_` by default. */
export const filenamePrefix = z
  .string()
  .regex(/^[A-Za-z0-9_-]{0,64}$/, 'filename_prefix may hold only letters, digits, - and _');

/** The options both camera sources share, beside their cameras. */
export const cameraOptions = {
  /** Seconds one grab may take before it is abandoned. */
  timeout_seconds: z.number({ message: 'timeout_seconds must be a number' }).positive().max(120).default(5),
  /** Grabs of one camera running at once; more wait (or time out). */
  concurrency: z.number({ message: 'concurrency must be a whole number' }).int().min(1).max(16).default(2),
  /**
   * A manager's health probe (a request without an event) grabs a picture, which is not written,
   * only when no grab succeeded for this long; 0 grabs on every probe.
   */
  check_seconds: z.number({ message: 'check_seconds must be a number' }).min(0).max(3600).default(30),
};

export interface CameraEntry {
  camera: string;
  url: string;
  filename_prefix?: string | undefined;
}

/**
 * A camera source's configuration names one camera (`camera`, `url`, `filename_prefix` at the top)
 * or several (`cameras:`, a list of them; their pictures share one aux record, as Sealog's
 * framegrab bots write up to three cameras' pairs in one). Either way it comes out as `cameras`
 * (`toCameras`).
 */
export function cameraFields(url: z.ZodType<string>) {
  const entry = z.object({ camera: cameraName, url, filename_prefix: filenamePrefix.optional() }).strict();
  return {
    camera: cameraName.optional(),
    url: url.optional(),
    filename_prefix: filenamePrefix.optional(),
    cameras: z
      .array(entry, { message: 'cameras must be a list of cameras' })
      .min(1, 'cameras must name at least one camera')
      .max(8, 'cameras may name at most 8 cameras')
      .optional(),
  };
}

interface CameraForm {
  camera?: string | undefined;
  url?: string | undefined;
  filename_prefix?: string | undefined;
  cameras?: CameraEntry[] | undefined;
}

/** One form or the other, each complete, and no two cameras of the same name. */
export function checkCameras(c: CameraForm, ctx: z.RefinementCtx): void {
  if (c.cameras && (c.camera !== undefined || c.url !== undefined))
    ctx.addIssue({
      code: 'custom',
      path: ['cameras'],
      message: 'cameras replaces camera and url: give one or the other',
    });
  if (!c.cameras) {
    if (c.camera === undefined)
      ctx.addIssue({ code: 'custom', path: ['camera'], message: 'camera must name the camera (or give cameras)' });
    if (c.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'url must be given' });
  }
  const names = (c.cameras ?? []).map((e) => e.camera);
  if (new Set(names).size !== names.length)
    ctx.addIssue({ code: 'custom', path: ['cameras'], message: 'cameras must have different names' });
}

export function toCameras<C extends CameraForm>(config: C): Omit<C, keyof CameraForm> & { cameras: CameraEntry[] } {
  const { camera, url, filename_prefix, cameras, ...rest } = config;
  return {
    ...rest,
    cameras: cameras ?? [{ camera: camera!, url: url!, ...(filename_prefix !== undefined ? { filename_prefix } : {}) }],
  };
}

/**
 * Sealog's frame-grab file name: `<prefix><YYYYMMDD_HHMMSSmmm>.jpg`, from the event's time in UTC,
 * as its framegrab bots name the files they write into the images folder.
 */
export function frameGrabName(prefix: string, at: number): string {
  const iso = new Date(at).toISOString(); // 2023-03-14T07:15:03.077Z
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}_${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}${iso.slice(20, 23)}`;
  return `${prefix}${stamp}.jpg`;
}

export function defaultPrefix(camera: string): string {
  return `${camera.replace(/[^A-Za-z0-9-]+/g, '_').slice(0, 63)}_`;
}

/** JPEG files start with the SOI marker; anything else (an HTML error page) is not a frame grab. */
export function isJpeg(data: Uint8Array): boolean {
  return data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff;
}

/**
 * Writes a frame grab into the images folder atomically (a hidden temporary file, then a rename),
 * so a reader never sees half a JPEG and a failed grab leaves nothing behind. The name is built
 * here from checked parts only; it cannot leave the folder.
 */
export async function writeFrameGrab(imagesDir: string, name: string, data: Uint8Array): Promise<string> {
  if (name !== path.basename(name) || name.startsWith('.'))
    throw new Error('frame-grab name must be a plain file name');
  await mkdir(imagesDir, { recursive: true });
  const target = path.join(imagesDir, name);
  const temporary = path.join(imagesDir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, data, { flag: 'wx' });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return target;
}

/** At most `limit` grabs at once; a waiting one gives up when its signal aborts. */
export class Limiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const reason = () => (signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) throw reason();
    if (this.running < this.limit) this.running++;
    else {
      // A finishing grab hands its slot straight to the first waiter (release), so none is taken twice.
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          const i = this.waiting.indexOf(go);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(reason());
        };
        signal.addEventListener('abort', abort, { once: true });
        this.waiting.push(go);
      });
    }
    try {
      if (signal.aborted) throw reason();
      return await work();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

/** A grab that failed; its message is for operators and holds no credential. */
export class CameraError extends LiveSourceError {
  override name = 'CameraError';
}

/**
 * What the two camera sources share: a grab only for an event that is current (its time within
 * `maxAgeMs` of now; a past event is `not_backfillable`, never today's picture), one file per event
 * and camera, and the values `<camera>.camera_name` / `<camera>.filename` that the lookup rules map
 * to Sealog's `camera_name` / `filename` pairs. The cameras are grabbed at once; a camera that fails
 * is left out of the answer (health says why), and when all fail the request fails.
 */
export abstract class CameraSource<E extends CameraEntry = CameraEntry> implements AuxSource {
  readonly historical = false;
  protected readonly state: LiveHealth;
  private readonly limiters = new Map<E, Limiter>();
  /** When a grab last succeeded (an event's or a probe's). */
  private lastGrabAt = -Infinity;
  private probing: Promise<ReadingResult> | null = null;

  constructor(
    protected readonly cameras: readonly E[],
    protected readonly options: { timeout_seconds: number; concurrency: number; check_seconds: number },
    protected readonly deps: SourceDeps,
    protected readonly now: () => number = Date.now,
  ) {
    this.state = new LiveHealth(0, now);
    for (const camera of cameras) this.limiters.set(camera, new Limiter(options.concurrency));
  }

  /** One JPEG from the camera, or an error whose message carries no credential. */
  protected abstract grab(camera: E, signal: AbortSignal): Promise<Uint8Array>;

  /** The failure as operators read it, without credentials. */
  protected abstract describe(camera: E, error: unknown): string;

  /** Aborts the grabs in flight when the source stops (a manager disabled, the server shutting down). */
  private stopping = new AbortController();

  async start(): Promise<void> {}

  async stop(): Promise<void> {
    this.stopping.abort(new LiveSourceError('the source stopped'));
    this.stopping = new AbortController();
  }

  async readingAt(request: ReadingRequest): Promise<ReadingResult> {
    if (request.eventId === '') return this.probe(request);
    if (request.at < this.now() - request.maxAgeMs) return { kind: 'not_backfillable' };
    return this.grabAll(request, true);
  }

  /**
   * A health probe (no event): answers from the last successful grab while it is recent, else
   * grabs each camera once without writing a file. One probe at a time; probes do not take the
   * events' grab slots.
   */
  private probe(request: ReadingRequest): Promise<ReadingResult> {
    const now = this.now();
    if (now - this.lastGrabAt < this.options.check_seconds * 1000) {
      const values = Object.fromEntries(this.cameras.map((c) => [`${c.camera}.camera_name`, c.camera]));
      return Promise.resolve({ kind: 'reading', reading: { ts: now, values }, provenance: 'realtime' });
    }
    this.probing ??= this.grabAll({ ...request, at: now }, false).finally(() => {
      this.probing = null;
    });
    return this.probing;
  }

  private async grabAll(request: ReadingRequest, write: boolean): Promise<ReadingResult> {
    const timeout = AbortSignal.timeout(this.options.timeout_seconds * 1000);
    const signal = AbortSignal.any([request.signal, timeout, this.stopping.signal]);
    const grabs = await Promise.allSettled(
      this.cameras.map((camera) => (write ? this.grabOne(camera, request, signal) : this.check(camera, signal))),
    );
    const values: Record<string, string> = {};
    const failures: string[] = [];
    grabs.forEach((grab, i) => {
      const camera = this.cameras[i]!.camera;
      if (grab.status === 'fulfilled') {
        values[`${camera}.camera_name`] = camera;
        if (grab.value) values[`${camera}.filename`] = `/images/${grab.value}`;
      } else {
        failures.push(
          timeout.aborted
            ? `camera ${camera}: no image in time (${this.options.timeout_seconds} s)`
            : request.signal.aborted
              ? `camera ${camera}: the request was cancelled`
              : `camera ${camera}: ${this.describe(this.cameras[i]!, grab.reason)}`,
        );
      }
    });
    if (failures.length === this.cameras.length) {
      this.state.disconnected(failures.join('; '));
      throw new CameraError(failures.join('; '));
    }
    this.state.connected();
    this.state.reading(request.at);
    this.lastGrabAt = this.now();
    if (failures.length) this.state.error(failures.join('; '));
    return { kind: 'reading', reading: { ts: request.at, values }, provenance: 'realtime' };
  }

  /** Grabs, checks and writes one camera's picture; answers its file name. */
  private async grabOne(camera: E, request: ReadingRequest, signal: AbortSignal): Promise<string> {
    const data = await this.limiters.get(camera)!.run(signal, () => this.grab(camera, signal));
    if (!isJpeg(data)) throw new Error('the answer is not a JPEG image');
    const name = frameGrabName(camera.filename_prefix ?? defaultPrefix(camera.camera), request.at);
    await writeFrameGrab(request.imagesDir, name, data);
    return name;
  }

  /** A probe's grab: the camera answers a JPEG; nothing is written. */
  private async check(camera: E, signal: AbortSignal): Promise<string> {
    if (!isJpeg(await this.grab(camera, signal))) throw new Error('the answer is not a JPEG image');
    return '';
  }

  health(): SourceHealth {
    return this.state.snapshot();
  }
}
