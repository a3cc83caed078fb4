import { spawn } from 'node:child_process';
import { z } from 'zod';
import type { SourceDeps } from './config.js';
import { CameraSource, cameraFields, cameraOptions, checkCameras, toCameras, type CameraEntry } from './frame-grab.js';
import { safeMessage } from './health.js';

/** Stream protocols ffmpeg may open for a still; never a local file or a container of other URLs. */
const streamProtocols = ['rtsp', 'rtsps', 'rtmp', 'rtmps', 'http', 'https', 'udp', 'rtp', 'srt', 'tcp'] as const;
/** What those protocols use underneath (ffmpeg's `-protocol_whitelist`). */
const protocolWhitelist = [...streamProtocols, 'tls', 'crypto', 'httpproxy'].join(',');

const streamUrl = z
  .string({ message: 'url must be a stream URL' })
  .refine(
    (u) => URL.canParse(u) && (streamProtocols as readonly string[]).includes(new URL(u).protocol.slice(0, -1)),
    `url must be a stream URL (${streamProtocols.join(', ')})`,
  );

/** One camera (`camera`, `url`: the live stream, `rtsp://user:password@encoder/stream`, `udp://@:5000`, …) or several (`cameras:`). */
export const ffmpegStillConfigSchema = z
  .object({
    ...cameraFields(streamUrl),
    ...cameraOptions,
    /** ffmpeg processes at once for one camera. */
    concurrency: cameraOptions.concurrency.default(1),
    /** Seconds one grab may take (ffmpeg must connect and decode a key frame). */
    timeout_seconds: cameraOptions.timeout_seconds.default(10),
    /** How long ffmpeg may look at the stream to learn its format before decoding (its default is 5 s). */
    probe_seconds: z.number({ message: 'probe_seconds must be a number' }).positive().max(10).default(1),
    /**
     * The ffmpeg program: `ffmpeg` from the PATH (Debian's) or an absolute path to a program named
     * ffmpeg. Nothing else: a manager edited from the client must not be a way to run any program.
     */
    ffmpeg: z
      .string()
      .regex(/^(ffmpeg|\/(?:[\w-][\w.-]*\/)*ffmpeg)$/, 'ffmpeg must be ffmpeg or an absolute path ending in /ffmpeg')
      .default('ffmpeg'),
  })
  .strict()
  .superRefine(checkCameras)
  .transform(toCameras);
export type FfmpegStillConfig = z.infer<typeof ffmpegStillConfigSchema>;

/** The largest still accepted from ffmpeg's output, in bytes. */
const maxStill = 32 * 1024 * 1024;

/**
 * One still from a live stream with ffmpeg, for encoders without a snapshot URL: ffmpeg opens the
 * stream, decodes the first frame and writes it as a JPEG to its standard output. The process is
 * killed when the grab times out or is cancelled; no shell is involved, and the URL (which may
 * carry credentials) never reaches a message.
 */
export class FfmpegStillSource extends CameraSource {
  constructor(
    private readonly config: FfmpegStillConfig,
    deps: SourceDeps,
    now?: () => number,
  ) {
    super(config.cameras, config, deps, now);
  }

  protected grab(camera: CameraEntry, signal: AbortSignal): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      const args = [
        '-nostdin',
        '-hide_banner',
        '-loglevel',
        'error',
        '-protocol_whitelist',
        protocolWhitelist,
        '-analyzeduration',
        String(Math.round(this.config.probe_seconds * 1_000_000)),
        '-probesize',
        '2000000',
        '-i',
        camera.url,
        '-frames:v',
        '1',
        '-an',
        '-f',
        'image2pipe',
        '-c:v',
        'mjpeg',
        '-q:v',
        '3',
        'pipe:1',
      ];
      const child = spawn(this.config.ffmpeg, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        signal,
        killSignal: 'SIGKILL',
      });
      const out: Buffer[] = [];
      let size = 0;
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxStill) child.kill('SIGKILL');
        else out.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 2000) stderr += chunk.toString('utf8');
      });
      // An abort kills ffmpeg; the grab settles on 'close', once the process is gone.
      child.on('error', (error) => {
        if (!signal.aborted) reject(error);
      });
      child.on('close', (code) => {
        if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        if (code === 0 && size > 0 && size <= maxStill) return resolve(Buffer.concat(out));
        const last = stderr.trim().split('\n').pop() ?? '';
        reject(new Error(`ffmpeg exited with ${code ?? 'a signal'}${last ? `: ${last}` : ''}`));
      });
    });
  }

  protected describe(camera: CameraEntry, error: unknown): string {
    const url = new URL(camera.url);
    const secrets = [
      camera.url,
      url.password,
      decodeURIComponent(url.password),
      url.username,
      decodeURIComponent(url.username),
    ];
    return safeMessage(error, secrets.filter(Boolean));
  }
}
