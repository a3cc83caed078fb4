import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { SpanIndex, type RecordingSpan, type Resolved } from './resolve.js';

/** The API path of a recording's media (the best copy for a browser when no role is named). */
export function recordingMediaPath(recordingId: string): string {
  return `/sealog-server/api/v1/recordings/${recordingId}/media`;
}

/** A link that opens the recording at the offset: a media fragment (`#t=` seconds). */
export function videoUrl(base: string, recordingId: string, offsetMs: number): string {
  return `${base}${recordingMediaPath(recordingId)}#t=${(offsetMs / 1000).toFixed(3).replace(/\.?0+$/, '')}`;
}

export interface VideoLinkOut extends Resolved {
  url: string;
}

/**
 * The recordings overlapping a time range, with each camera's clock offset applied, loaded once
 * and resolved for many moments (an export's events). `base`: what links start with (the server's
 * public URL, or nothing for links relative to the server).
 */
export class VideoIndex {
  private constructor(
    private readonly spans: SpanIndex,
    private readonly base: string,
  ) {}

  static async load(db: Kysely<DB>, lo: number, hi: number, base = ''): Promise<VideoIndex> {
    // A clock offset moves a recording by at most a day (the schema's bound): widen the window by it.
    const day = 86_400_000;
    const rows = await db
      .selectFrom('recordings as r')
      .leftJoin('camera_clock_offsets as o', (j) =>
        j.onRef('o.lowering_id', '=', 'r.lowering_id').onRef('o.camera', '=', 'r.camera'),
      )
      .select(['r.id', 'r.camera', 'r.start_ts', 'r.duration_ms', 'o.offset_ms'])
      .where('r.start_ts', '<=', hi + day)
      .where((eb) => eb(eb('r.start_ts', '+', eb.ref('r.duration_ms')), '>=', lo - day))
      .execute();
    const spans: RecordingSpan[] = rows.map((r) => ({
      id: r.id,
      camera: r.camera,
      start: Number(r.start_ts) - Number(r.offset_ms ?? 0),
      duration_ms: Number(r.duration_ms),
    }));
    return new VideoIndex(new SpanIndex(spans), base.replace(/\/+$/, ''));
  }

  get empty(): boolean {
    return this.spans.empty;
  }

  /** Each camera's recording, offset and link at `ts`. */
  at(ts: number): VideoLinkOut[] {
    return this.spans.at(ts).map((r) => ({ ...r, url: videoUrl(this.base, r.recording_id, r.offset_ms) }));
  }
}

/**
 * What a route that declares `config.video` gets (media/video-links.ts): the recordings of a time
 * range, resolved. Exports and event pages read it without knowing the recordings module.
 */
export interface VideoLinks {
  within(lo: number, hi: number): Promise<VideoIndex>;
}

export function videoLinks(db: Kysely<DB>, base: string): VideoLinks {
  return { within: (lo, hi) => VideoIndex.load(db, lo, hi, base) };
}
