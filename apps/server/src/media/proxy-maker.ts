import { atLowPriority } from './low-priority.js';
import { runFfmpeg } from './run-ffmpeg.js';
import { mediaInput, protocolWhitelist, type MediaSource } from './media-uri.js';

export class ProxyError extends Error {}

/** The largest frame height of a proxy: small enough for a thin link, enough to see what is on screen. */
const proxyHeight = 480;

/**
 * Makes a recording's proxy with ffmpeg (docs/video.md#proxies): H.264 (yuv420p, which every
 * browser plays) and AAC audio when there is any, at most 480 lines, the index at the front
 * (`+faststart`) so a browser plays and seeks by range requests before the end has arrived.
 * One encoder thread at the lowest priority (nice, ionice), so the console keeps its cores; the
 * caller runs one at a time. Killed past `timeoutMs`.
 */
export function makeProxy(opts: {
  ffmpeg: string;
  source: MediaSource;
  deinterlace: boolean;
  out: string;
  timeoutMs: number;
}): Promise<void> {
  const filters = [...(opts.deinterlace ? ['yadif'] : []), `scale=-2:'min(${proxyHeight},ih)'`];
  const args = [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
    ...['-protocol_whitelist', protocolWhitelist(opts.source), '-i', mediaInput(opts.source)],
    ...['-map', '0:v:0', '-map', '0:a:0?', '-vf', filters.join(',')],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28', '-pix_fmt', 'yuv420p', '-threads', '1'],
    ...['-c:a', 'aac', '-b:a', '96k', '-ac', '2'],
    ...['-movflags', '+faststart', '-f', 'mp4', '-y', opts.out],
  ];
  return runFfmpeg(atLowPriority(opts.ffmpeg, args), {
    timeoutMs: opts.timeoutMs,
    fail: (message) => new ProxyError(message),
    exitMessage: (lastLine) => `ffmpeg could not make the proxy: ${lastLine}`,
  });
}
