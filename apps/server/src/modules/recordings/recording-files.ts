import { recordedFramegrabSource, thumbnailWidths, type AuxDataItem } from '@bathylog/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';
import { storedUri } from '../../media/stored-copy.js';
import { VideoIndex } from '../../media/video-index.js';
import type { AuthContext } from '../../plugins/auth.js';
import { internalChannels } from '../../realtime/internal-channels.js';
import { storeKey } from '../../storage/index.js';
import { recordChange } from '../audit/audit.js';
import { toWireAux } from '../events/event-output.js';
import { withoutAttachment } from '../files/attachment-files.js';
import { thumbnailKey } from '../files/thumbnails.js';
import { RecordingsRepository, type RecordingRecord } from './recordings.repository.js';

/**
 * What a deleted recording leaves in the file store (docs/video.md#deleting-recordings): the
 * folder of its stored copies (`recordings/<id>/`, its proxy) and the frames grabbed from it (the
 * `recordedFramegrabberData` records naming them, by event and camera).
 */
export interface RecordingLeftovers {
  recordingIds: string[];
  /** Per frame-grab record, the frame files of the deleted recordings it names. */
  frames: Map<string, Set<string>>;
}

const day = 86_400_000;

/** The frame files these camera pairs name (`camera_name` then `filename`) for one camera. */
function framesOfCamera(items: readonly AuxDataItem[], camera: string): string[] {
  const out: string[] = [];
  items.forEach((item, i) => {
    const next = items[i + 1];
    if (item.data_name === 'camera_name' && String(item.data_value) === camera && next?.data_name === 'filename')
      out.push(String(next.data_value));
  });
  return out;
}

/**
 * Read before the recordings' rows go (in the deleting transaction): which frame grabs came from
 * them. A frame came from a recording when its event's time resolves, for the frame's camera, to
 * that recording (as the grab resolved it).
 */
export async function leftoversOf(
  db: Kysely<DB> | Transaction<DB>,
  recordings: readonly RecordingRecord[],
): Promise<RecordingLeftovers> {
  const frames = new Map<string, Set<string>>();
  for (const r of recordings) {
    const lo = r.start_ts - day;
    const hi = r.start_ts + r.duration_ms + day;
    const index = await VideoIndex.load(db, lo, hi);
    const rows = await db
      .selectFrom('event_aux_data as a')
      .innerJoin('events as e', 'e.id', 'a.event_id')
      .select(['a.id', 'a.data_array', 'e.ts'])
      .where('a.data_source', '=', recordedFramegrabSource)
      .where('e.ts', '>=', lo)
      .where('e.ts', '<=', hi)
      .execute();
    for (const row of rows) {
      const link = index.at(Number(row.ts)).find((l) => l.camera === r.camera);
      if (link?.recording_id !== r.id) continue;
      const names = framesOfCamera(parseJson<AuxDataItem[]>(row.data_array, []), r.camera);
      if (names.length === 0) continue;
      const set = frames.get(row.id) ?? new Set<string>();
      for (const n of names) set.add(n);
      frames.set(row.id, set);
    }
  }
  return { recordingIds: recordings.map((r) => r.id), frames };
}

/**
 * After the recordings' rows went: their frame pairs leave the frame-grab records (a record left
 * without a frame goes), then every file no record still names is deleted from the store: the
 * recordings' stored copies and the frames with their thumbnails. A frame another record still
 * names (an inserter's record of the same file) stays. A store that is down leaves the files for
 * `bathylog storage-status` to show; the records are gone either way.
 */
export async function removeLeftovers(
  ctx: AppContext,
  caller: AuthContext | null,
  left: RecordingLeftovers,
): Promise<void> {
  const db = ctx.database.db;
  const names = new Set<string>();
  for (const [auxId, frames] of left.frames) {
    for (const n of frames) names.add(n);
    const published = await db.transaction().execute(async (trx) => {
      const found = await trx.selectFrom('event_aux_data').selectAll().where('id', '=', auxId).executeTakeFirst();
      if (!found) return null;
      const items = withoutAttachment(parseJson<AuxDataItem[]>(found.data_array, []), [...frames]);
      if (!items.some((i) => i.data_name === 'filename')) {
        await trx.deleteFrom('event_aux_data').where('id', '=', auxId).execute();
        await recordChange(trx, caller, {
          action: 'delete',
          record_type: 'event_aux_data',
          record_id: auxId,
          old_value: toWireAux(found),
        });
        return { channel: 'deleteEventAuxData' as const, row: found };
      }
      const updated = { ...found, data_array: JSON.stringify(items) };
      await trx.updateTable('event_aux_data').set({ data_array: updated.data_array }).where('id', '=', auxId).execute();
      await recordChange(trx, caller, {
        action: 'update',
        record_type: 'event_aux_data',
        record_id: auxId,
        old_value: toWireAux(found),
        new_value: toWireAux(updated),
      });
      return { channel: 'updateEventAuxData' as const, row: updated };
    });
    if (published) ctx.bus.publish(published.channel, toWireAux(published.row));
  }
  try {
    for (const id of left.recordingIds) await removeRecordingFolder(ctx, id);
    for (const name of names) {
      // Another record (an inserter's frame record, an attachment) may name the same file.
      const used = await db
        .selectFrom('event_aux_data')
        .select('id')
        .where('data_array', 'like', `%${name}%`)
        .executeTakeFirst();
      if (used) continue;
      let key: string;
      try {
        key = storeKey('images', name);
      } catch {
        continue;
      }
      await ctx.store.delete(key);
      for (const w of thumbnailWidths) await ctx.store.delete(thumbnailKey(key, w));
    }
  } catch (err) {
    ctx.log.warn({ err }, 'files of a deleted recording stay in the store');
  }
}

/** Deletes the stored files of a recording that no copy names any more; a store that is down leaves them. */
export async function removeUnusedStored(ctx: AppContext, recordingId: string): Promise<void> {
  await removeRecordingFolder(ctx, recordingId).catch((err: unknown) =>
    ctx.log.warn({ err }, 'files of a recording stay in the store'),
  );
}

/** The stored files of a recording's folder that no copy names any more (all of them once it is gone). */
async function removeRecordingFolder(ctx: AppContext, recordingId: string): Promise<void> {
  const prefix = `${storeKey('recordings', recordingId)}/`;
  const files = await ctx.store.list(prefix, { recursive: true });
  let kept = 0;
  for (const f of files) {
    const used = await ctx.database.db
      .selectFrom('recording_copies')
      .select('id')
      .where('uri', '=', storedUri(f.key))
      .executeTakeFirst();
    if (used) kept++;
    else await ctx.store.delete(f.key);
  }
  if (kept === 0) await ctx.store.deletePrefix(prefix);
}

/**
 * The recordings of lowerings being deleted (docs/video.md#deleting-recordings), in the deleting
 * transaction: their rows, clock offsets and frame jobs, each recording's deletion in the audit
 * trail (which a following shore reads). Answers the work for after the commit: the shores woken,
 * their proxies and frames removed from the store.
 */
export async function removeRecordingsOfLowerings(
  ctx: AppContext,
  trx: Transaction<DB>,
  caller: AuthContext,
  loweringIds: readonly string[],
): Promise<(() => Promise<void>) | undefined> {
  const repo = new RecordingsRepository(trx);
  const recordings = (await Promise.all(loweringIds.map((id) => repo.listByLowering(id)))).flat();
  const left = await leftoversOf(trx, recordings);
  for (const r of recordings) {
    await repo.remove(r.id);
    await recordChange(trx, caller, { action: 'delete', record_type: 'recording', record_id: r.id });
  }
  for (const id of loweringIds) await repo.removeLoweringRest(id);
  if (recordings.length === 0) return undefined;
  return async () => {
    for (const r of recordings) ctx.bus.publish(internalChannels.recordingsChanged, { recordingId: r.id });
    await removeLeftovers(ctx, caller, left);
  };
}
