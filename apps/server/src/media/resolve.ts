/**
 * Resolving a moment to each camera's recording and the offset into it (docs/video.md#resolving-a-time).
 * A recording covers [start, start + duration], both ends included, where start is its start on
 * the recorder's clock corrected by the camera's clock offset. Segments written back to back share
 * their boundary: a moment on it, or just after, resolves to the segment that starts there. A
 * moment in no recording of a camera resolves to nothing for that camera.
 */
export interface RecordingSpan {
  id: string;
  camera: string;
  /** The start in UTC (epoch ms), clock offset applied. */
  start: number;
  duration_ms: number;
}

export interface Resolved {
  camera: string;
  recording_id: string;
  offset_ms: number;
}

/** Spans grouped per camera, each list sorted by start, for repeated lookups. */
export class SpanIndex {
  private readonly byCamera = new Map<string, RecordingSpan[]>();

  constructor(spans: readonly RecordingSpan[]) {
    for (const s of spans) {
      const list = this.byCamera.get(s.camera) ?? [];
      list.push(s);
      this.byCamera.set(s.camera, list);
    }
    for (const list of this.byCamera.values()) list.sort((a, b) => a.start - b.start || a.id.localeCompare(b.id));
  }

  get cameras(): string[] {
    return [...this.byCamera.keys()].sort();
  }

  get empty(): boolean {
    return this.byCamera.size === 0;
  }

  /** Each camera's recording at `ts`, cameras in name order. */
  at(ts: number): Resolved[] {
    const out: Resolved[] = [];
    for (const camera of this.cameras) {
      const hit = latestCovering(this.byCamera.get(camera)!, ts);
      if (hit) out.push({ camera, recording_id: hit.id, offset_ms: ts - hit.start });
    }
    return out;
  }
}

/** The latest-starting span holding ts (binary search on start, then back over overlapping ones). */
function latestCovering(list: readonly RecordingSpan[], ts: number): RecordingSpan | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.start <= ts) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0; i--) {
    const s = list[i]!;
    if (ts <= s.start + s.duration_ms) return s;
    // Recordings of one camera rarely overlap; stop once far enough back that none can reach ts.
    if (lo - 1 - i > 64) break;
  }
  return undefined;
}
