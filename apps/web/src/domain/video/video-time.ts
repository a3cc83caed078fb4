import type { CameraOffset, Recording } from '@bathylog/shared';

/**
 * The recordings of one camera on a time line (docs/video.md#resolving-a-time): each recording's
 * true start is its start minus the camera's clock offset. A moment on the boundary of two
 * back-to-back segments belongs to the later one; a moment in no recording to none.
 */
export interface CameraTimeline {
  camera: string;
  spans: Array<{ recording: Recording; start: number; stop: number }>;
}

export function cameraTimelines(recordings: readonly Recording[], offsets: readonly CameraOffset[]): CameraTimeline[] {
  const offsetOf = new Map(offsets.map((o) => [o.camera, o.offset_ms]));
  const byCamera = new Map<string, CameraTimeline>();
  for (const recording of recordings) {
    const start = Date.parse(recording.start_ts) - (offsetOf.get(recording.camera) ?? 0);
    const line = byCamera.get(recording.camera) ?? { camera: recording.camera, spans: [] };
    line.spans.push({ recording, start, stop: start + recording.duration_ms });
    byCamera.set(recording.camera, line);
  }
  const lines = [...byCamera.values()].sort((a, b) => a.camera.localeCompare(b.camera));
  for (const line of lines) line.spans.sort((a, b) => a.start - b.start);
  return lines;
}

/** The recording of the line at `ts` and the offset into it (ms), or null in a gap. */
export function resolveOn(line: CameraTimeline, ts: number): { recording: Recording; offset_ms: number } | null {
  for (let i = line.spans.length - 1; i >= 0; i--) {
    const span = line.spans[i]!;
    if (span.start <= ts && ts <= span.stop) return { recording: span.recording, offset_ms: ts - span.start };
  }
  return null;
}

/** The moment (epoch ms) a position in a recording shows. */
export function momentOf(line: CameraTimeline, recordingId: string, seconds: number): number | null {
  const span = line.spans.find((s) => s.recording.id === recordingId);
  return span ? span.start + Math.round(seconds * 1000) : null;
}

/** The recording after this one on the line (segments play on), or null. */
export function nextOn(line: CameraTimeline, recordingId: string): Recording | null {
  const i = line.spans.findIndex((s) => s.recording.id === recordingId);
  return i >= 0 && i + 1 < line.spans.length ? line.spans[i + 1]!.recording : null;
}

/** The API path that plays a recording (the proxy where there is one). */
export function mediaUrl(recordingId: string): string {
  return `/sealog-server/api/v1/recordings/${recordingId}/media`;
}

/** mm:ss.s (h:mm:ss.s past an hour) of an offset, for links and the player. */
export function formatOffset(ms: number): string {
  const total = Math.max(0, ms) / 1000;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = (total % 60).toFixed(1).padStart(4, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${String(m).padStart(2, '0')}:${s}`;
}
