import { spawn } from 'node:child_process';
import { atLowPriority } from './low-priority.js';
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
  const run = atLowPriority(opts.ffmpeg, args);
  return new Promise<void>((resolve, reject) => {
    const child = spawn(run.command, run.args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 2000) stderr += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new ProxyError(`ffmpeg took longer than ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new ProxyError(`ffmpeg could not start: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new ProxyError(`ffmpeg could not make the proxy: ${stderr.trim().split('\n').at(-1) ?? code}`));
    });
  });
}
