import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * A test recording made by ffmpeg (docs/video.md#tests-and-figures): `testsrc2` (a picture that changes every
 * frame), 25 frames/s, a keyframe every 2 s, split into segments named by their start as ffmpeg's
 * segment muxer names them with `-strftime 1` (`cam1_20230314T223000Z.mp4`), plus an HLS copy of
 * the first segment. The whole recording is kept as the reference its frames are compared with.
 */
export interface VideoFixture {
  /** The whole recording (not registered: frames are compared with it). */
  reference: string;
  /** Segment files, relative to the data folder, with their start. */
  segments: Array<{ uri: string; start: number; seconds: number }>;
  /** The HLS playlist of the first segment, relative to the data folder. */
  hls: string;
  fps: number;
}

export const fixtureStart = Date.UTC(2023, 2, 14, 22, 30, 0);

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');

export function makeVideoFixture(
  ffmpeg: string,
  dataDir: string,
  opts: { seconds?: number; segmentSeconds?: number; camera?: string; start?: number } = {},
): VideoFixture {
  const seconds = opts.seconds ?? 64;
  const segmentSeconds = opts.segmentSeconds ?? 40;
  const camera = opts.camera ?? 'cam1';
  const start = opts.start ?? fixtureStart;
  const fps = 25;
  const dir = path.join(dataDir, 'video', camera);
  mkdirSync(dir, { recursive: true });
  const reference = path.join(dataDir, `${camera}-reference.mp4`);
  const run = (args: string[]) => execFileSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  run([
    ...['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=${fps}:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...['-g', String(2 * fps), '-keyint_min', String(2 * fps), '-sc_threshold', '0'],
    reference,
  ]);
  const tmp = path.join(dir, 'split');
  mkdirSync(tmp, { recursive: true });
  run([
    ...['-i', reference, '-c', 'copy', '-map', '0'],
    ...['-f', 'segment', '-segment_time', String(segmentSeconds), '-reset_timestamps', '1'],
    path.join(tmp, 'seg%03d.mp4'),
  ]);
  const segments: VideoFixture['segments'] = [];
  const files = readdirSync(tmp).sort();
  files.forEach((name, i) => {
    const segStart = start + i * segmentSeconds * 1000;
    const final = `${camera}_${stamp(segStart)}.mp4`;
    renameSync(path.join(tmp, name), path.join(dir, final));
    segments.push({
      uri: `video/${camera}/${final}`,
      start: segStart,
      seconds: Math.min(segmentSeconds, seconds - i * segmentSeconds),
    });
  });
  const hlsDir = path.join(dir, 'hls');
  mkdirSync(hlsDir, { recursive: true });
  const hlsName = `${camera}_${stamp(start)}.m3u8`;
  run([
    ...['-i', path.join(dataDir, segments[0]!.uri), '-c', 'copy'],
    ...['-f', 'hls', '-hls_time', '4', '-hls_list_size', '0', '-hls_playlist_type', 'vod'],
    path.join(hlsDir, hlsName),
  ]);
  return { reference, segments, hls: `video/${camera}/hls/${hlsName}`, fps };
}

/** Frame `index` of the reference as a PNG at `out`. */
export function referenceFrame(ffmpeg: string, reference: string, index: number, out: string): string {
  execFileSync(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-i', reference],
    ...['-vf', `select=eq(n\\,${index})`, '-vsync', '0', '-frames:v', '1', out],
  ]);
  return out;
}

/** PSNR (dB, average over the planes) of two pictures of one size, by ffmpeg's psnr filter. */
export function psnr(ffmpeg: string, a: string, b: string): number {
  const graph = '[0:v]format=yuv420p[x];[1:v]format=yuv420p[y];[x][y]psnr';
  const res = spawnSync(ffmpeg, ['-hide_banner', '-nostats', '-i', a, '-i', b, '-lavfi', graph, '-f', 'null', '-'], {
    encoding: 'utf8',
  });
  const m = /average:([0-9.]+|inf)/.exec(res.stderr);
  if (!m) throw new Error(`no PSNR from ffmpeg: ${res.stderr.slice(-500)}`);
  return m[1] === 'inf' ? Infinity : Number(m[1]);
}
