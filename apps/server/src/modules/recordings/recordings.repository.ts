import type { Kysely, Transaction } from 'kysely';
import type { RecordingCopyRole } from '@bathylog/shared';
import type { DB } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';

type Db = Kysely<DB> | Transaction<DB>;

export interface CopyRecord {
  id: string;
  recording_id: string;
  role: RecordingCopyRole;
  uri: string;
  codec: string | null;
  size_bytes: number | null;
  width: number | null;
  height: number | null;
  frame_rate: number | null;
  interlaced: boolean;
  checksum: string | null;
  /** A copy a shore lists but only the ship holds (docs/video.md#ship-to-shore). */
  on_ship_only?: boolean;
}

export interface RecordingRecord {
  id: string;
  lowering_id: string;
  camera: string;
  start_ts: number;
  duration_ms: number;
  created_at: number;
  copies: CopyRecord[];
}

export interface LoweringSpan {
  id: string;
  lowering_id: string;
  start_ts: number;
  stop_ts: number;
}

export interface JobRecord {
  id: string;
  lowering_id: string;
  state: 'running' | 'done' | 'failed';
  total: number;
  results: unknown[];
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function copyFromRow(row: DB['recording_copies']): CopyRecord {
  return {
    id: row.id,
    recording_id: row.recording_id,
    role: row.role as RecordingCopyRole,
    uri: row.uri,
    codec: row.codec,
    size_bytes: num(row.size_bytes),
    width: num(row.width),
    height: num(row.height),
    frame_rate: num(row.frame_rate),
    interlaced: Number(row.interlaced) === 1,
    checksum: row.checksum,
    on_ship_only: Number(row.on_ship_only ?? 0) === 1,
  };
}

/** Recordings, their copies, camera clock offsets and frame jobs (migration 032). */
export class RecordingsRepository {
  constructor(private readonly db: Db) {}

  async lowering(id: string): Promise<LoweringSpan | undefined> {
    const row = await this.db
      .selectFrom('lowerings')
      .select(['id', 'lowering_id', 'start_ts', 'stop_ts'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { ...row, start_ts: Number(row.start_ts), stop_ts: Number(row.stop_ts) };
  }

  /** The lowerings whose [start, stop] holds ts (newest start first). */
  async loweringsAt(ts: number): Promise<LoweringSpan[]> {
    const rows = await this.db
      .selectFrom('lowerings')
      .select(['id', 'lowering_id', 'start_ts', 'stop_ts'])
      .where('start_ts', '<=', ts)
      .where('stop_ts', '>=', ts)
      .orderBy('start_ts', 'desc')
      .execute();
    return rows.map((r) => ({ ...r, start_ts: Number(r.start_ts), stop_ts: Number(r.stop_ts) }));
  }

  private async withCopies(rows: Array<DB['recordings']>): Promise<RecordingRecord[]> {
    if (rows.length === 0) return [];
    const copies = await this.db
      .selectFrom('recording_copies')
      .selectAll()
      .where(
        'recording_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('id')
      .execute();
    const byRecording = new Map<string, CopyRecord[]>();
    for (const c of copies) {
      const list = byRecording.get(c.recording_id) ?? [];
      list.push(copyFromRow(c));
      byRecording.set(c.recording_id, list);
    }
    return rows.map((r) => ({
      id: r.id,
      lowering_id: r.lowering_id,
      camera: r.camera,
      start_ts: Number(r.start_ts),
      duration_ms: Number(r.duration_ms),
      created_at: Number(r.created_at),
      copies: byRecording.get(r.id) ?? [],
    }));
  }

  async listByLowering(loweringId: string): Promise<RecordingRecord[]> {
    const rows = await this.db
      .selectFrom('recordings')
      .selectAll()
      .where('lowering_id', '=', loweringId)
      .orderBy('camera')
      .orderBy('start_ts')
      .execute();
    return this.withCopies(rows);
  }

  async findById(id: string): Promise<RecordingRecord | undefined> {
    const row = await this.db.selectFrom('recordings').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? (await this.withCopies([row]))[0] : undefined;
  }

  async uriTaken(uris: readonly string[], except?: string): Promise<string | undefined> {
    if (uris.length === 0) return undefined;
    let q = this.db
      .selectFrom('recording_copies')
      .select('uri')
      .where('uri', 'in', [...uris]);
    if (except) q = q.where('recording_id', '<>', except);
    return (await q.executeTakeFirst())?.uri;
  }

  async insert(r: RecordingRecord): Promise<void> {
    await this.db
      .insertInto('recordings')
      .values({
        id: r.id,
        lowering_id: r.lowering_id,
        camera: r.camera,
        start_ts: r.start_ts,
        duration_ms: r.duration_ms,
        created_at: r.created_at,
      })
      .execute();
    await this.insertCopies(r.copies);
  }

  private async insertCopies(copies: readonly CopyRecord[]): Promise<void> {
    if (copies.length === 0) return;
    await this.db
      .insertInto('recording_copies')
      .values(copies.map((c) => ({ ...c, interlaced: c.interlaced ? 1 : 0, on_ship_only: c.on_ship_only ? 1 : 0 })))
      .execute();
  }

  async replace(r: RecordingRecord): Promise<void> {
    await this.db
      .updateTable('recordings')
      .set({ camera: r.camera, start_ts: r.start_ts, duration_ms: r.duration_ms })
      .where('id', '=', r.id)
      .execute();
    await this.db.deleteFrom('recording_copies').where('recording_id', '=', r.id).execute();
    await this.insertCopies(r.copies);
  }

  /**
   * Claims the making of the recording's proxy for this host: true unless another host holds a
   * claim renewed since `staleBefore` (one atomic UPDATE, so two hosts never both win).
   */
  async claimProxy(id: string, now: number, staleBefore: number): Promise<boolean> {
    const res = await this.db
      .updateTable('recordings')
      .set({ proxy_claimed_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('proxy_claimed_at', 'is', null), eb('proxy_claimed_at', '<', staleBefore)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Says the proxy is still being made (`at`), or that it no longer is (null). */
  async markProxyClaim(id: string, at: number | null): Promise<void> {
    await this.db.updateTable('recordings').set({ proxy_claimed_at: at }).where('id', '=', id).execute();
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('recording_copies').where('recording_id', '=', id).execute();
    await this.db.deleteFrom('recordings').where('id', '=', id).execute();
  }

  /** A deleted lowering's clock offsets and frame jobs. */
  async removeLoweringRest(loweringId: string): Promise<void> {
    await this.db.deleteFrom('camera_clock_offsets').where('lowering_id', '=', loweringId).execute();
    await this.db.deleteFrom('framegrab_jobs').where('lowering_id', '=', loweringId).execute();
  }

  async offsets(loweringId: string): Promise<Array<{ camera: string; offset_ms: number }>> {
    const rows = await this.db
      .selectFrom('camera_clock_offsets')
      .select(['camera', 'offset_ms'])
      .where('lowering_id', '=', loweringId)
      .orderBy('camera')
      .execute();
    return rows.map((r) => ({ camera: r.camera, offset_ms: Number(r.offset_ms) }));
  }

  async setOffset(loweringId: string, camera: string, offsetMs: number): Promise<void> {
    await this.db
      .deleteFrom('camera_clock_offsets')
      .where('lowering_id', '=', loweringId)
      .where('camera', '=', camera)
      .execute();
    if (offsetMs !== 0)
      await this.db
        .insertInto('camera_clock_offsets')
        .values({ lowering_id: loweringId, camera, offset_ms: offsetMs })
        .execute();
  }

  /** Events of [lo, hi] (ts order) with whether they hold a record of any of `imageSources`. */
  async eventsWithin(
    lo: number,
    hi: number,
    imageSources: readonly string[],
  ): Promise<Array<{ id: string; ts: number; has_image: boolean }>> {
    const rows = await this.db
      .selectFrom('events as e')
      .select((eb) => [
        'e.id',
        'e.ts',
        eb
          .exists(
            eb
              .selectFrom('event_aux_data as a')
              .select('a.id')
              .whereRef('a.event_id', '=', 'e.id')
              .where('a.data_source', 'in', imageSources.length ? [...imageSources] : ['']),
          )
          .as('has_image'),
      ])
      .where('e.ts', '>=', lo)
      .where('e.ts', '<=', hi)
      // Events copied from a ship are the ship's: their frames come from it.
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('sync_origins as so')
              .select('so.record_id')
              .where('so.record_type', '=', 'event')
              .whereRef('so.record_id', '=', 'e.id'),
          ),
        ),
      )
      .orderBy('e.ts')
      .orderBy('e.id')
      .execute();
    return rows.map((r) => ({ id: r.id, ts: Number(r.ts), has_image: !!Number(r.has_image) }));
  }

  async eventById(id: string): Promise<{ id: string; ts: number; created_by: string | null } | undefined> {
    const row = await this.db
      .selectFrom('events')
      .select(['id', 'ts', 'created_by'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { id: row.id, ts: Number(row.ts), created_by: row.created_by ?? null };
  }

  async insertJob(job: JobRecord): Promise<void> {
    await this.db
      .insertInto('framegrab_jobs')
      .values({
        id: job.id,
        lowering_id: job.lowering_id,
        state: job.state,
        total: job.total,
        results: JSON.stringify(job.results),
        created_at: job.created_at,
        updated_at: job.updated_at,
        finished_at: job.finished_at,
      })
      .execute();
  }

  async updateJob(job: JobRecord): Promise<void> {
    await this.db
      .updateTable('framegrab_jobs')
      .set({
        state: job.state,
        results: JSON.stringify(job.results),
        updated_at: job.updated_at,
        finished_at: job.finished_at,
      })
      .where('id', '=', job.id)
      .execute();
  }

  async latestJob(loweringId: string): Promise<JobRecord | undefined> {
    const row = await this.db
      .selectFrom('framegrab_jobs')
      .selectAll()
      .where('lowering_id', '=', loweringId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        lowering_id: row.lowering_id,
        state: row.state as JobRecord['state'],
        total: Number(row.total),
        results: parseJson<unknown[]>(row.results, []),
        created_at: Number(row.created_at),
        updated_at: Number(row.updated_at),
        finished_at: row.finished_at === null ? null : Number(row.finished_at),
      }
    );
  }
}
