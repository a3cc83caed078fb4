import { execFile } from 'node:child_process';
import { mediaInput, protocolWhitelist, type MediaSource } from './media-uri.js';

/** What ffprobe reads of a recording: never taken from the caller (docs/video.md#registering-recordings). */
export interface ProbedMedia {
  duration_ms: number;
  codec: string | null;
  width: number | null;
  height: number | null;
  frame_rate: number | null;
  interlaced: boolean;
}

export class ProbeError extends Error {}

interface FfprobeOutput {
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    avg_frame_rate?: string;
    r_frame_rate?: string;
    field_order?: string;
    duration?: string;
  }>;
  format?: { duration?: string };
}

function rate(text: string | undefined): number | null {
  if (!text) return null;
  const [n, d] = text.split('/').map(Number);
  if (!n || !Number.isFinite(n)) return null;
  const r = d ? n / d : n;
  return Number.isFinite(r) && r > 0 ? Math.round(r * 1000) / 1000 : null;
}

/**
 * Reads a recording's first video stream with ffprobe: duration (of the container, else the
 * stream), codec, frame size, frame rate, and whether it is interlaced (`field_order` other than
 * progressive). Refuses what is no video or cannot be read within `timeoutMs`.
 */
export function probe(ffprobe: string, source: MediaSource, timeoutMs = 20_000): Promise<ProbedMedia> {
  const args = [
    '-v',
    'error',
    '-protocol_whitelist',
    protocolWhitelist(source),
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_type,codec_name,width,height,avg_frame_rate,r_frame_rate,field_order,duration:format=duration',
    '-of',
    'json',
    mediaInput(source),
  ];
  return new Promise((resolve, reject) => {
    execFile(ffprobe, args, { timeout: timeoutMs, maxBuffer: 1 << 20 }, (err, stdout) => {
      if (err) {
        reject(new ProbeError(err.killed ? 'ffprobe took too long' : 'ffprobe could not read it as video'));
        return;
      }
      let out: FfprobeOutput;
      try {
        out = JSON.parse(stdout) as FfprobeOutput;
      } catch {
        reject(new ProbeError('ffprobe gave no readable answer'));
        return;
      }
      const stream = out.streams?.find((s) => s.codec_type === 'video') ?? out.streams?.[0];
      const seconds = Number(out.format?.duration ?? stream?.duration);
      if (!stream || !Number.isFinite(seconds) || seconds <= 0) {
        reject(new ProbeError('holds no video stream with a duration'));
        return;
      }
      const order = stream.field_order;
      resolve({
        duration_ms: Math.round(seconds * 1000),
        codec: stream.codec_name ?? null,
        width: stream.width ?? null,
        height: stream.height ?? null,
        frame_rate: rate(stream.avg_frame_rate) ?? rate(stream.r_frame_rate),
        interlaced: !!order && order !== 'progressive' && order !== 'unknown',
      });
    });
  });
}
