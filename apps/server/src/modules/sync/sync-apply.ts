import {
  copiedRecordProblem,
  newObjectId,
  shouldPublish,
  syncChangeSchema,
  type SyncChange,
  type SyncFileRecord,
} from '@bathylog/shared';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { claimImages } from '../../db/sql/image-owners.js';
import { CruisesService } from '../cruises/cruises.service.js';
import { toWireAux, toWireEvent } from '../events/event-output.js';
import { EventTemplatesService } from '../event-templates/event-templates.service.js';
import { LoweringsService } from '../lowerings/lowerings.service.js';
import { feedFileKey } from './sync-files.js';
import { storedKeyOf } from '../../media/stored-copy.js';
import { deleteShipRecording, recordingArea, storeShipRecording } from './sync-recordings.js';
import { isTableType, syncTables, type TableRecordType } from './sync-records.js';

/** Priorities of the file queue: thumbnails of images first, then whole files. */
export const thumbnailPriority = 0;
export const filePriority = 1;

type Publication = () => Promise<void>;

/** A change the shore would not take from a ship (docs/ship-to-shore.md#refused-changes). */
export interface Refusal {
  record_type: string;
  record_id: string;
  reason: string;
}

/**
 * Thrown while checking a change, always before it wrote anything (so no savepoint is needed):
 * the change is left out, the page goes on.
 */
class Refused extends Error {}

/** The refusals kept per ship, newest first (older ones are only counted). */
export const refusalsKept = 100;
/** Refusals of one page written to the server log (the rest are counted in one line). */
const refusalsLogged = 10;

export const notThisShipsRecord = "The record is not this ship's: the shore's own, or another ship's";
export const storeFailed = 'The shore could not store it';

interface PageResult {
  publications: Publication[];
  removedFiles: string[];
  refused: Refusal[];
}

/**
 * Applies one page of a ship's changes on the shore, in one transaction: upserts by the ship's
 * ids, deletions, files queued by checksum; the ship's cursor moves in the same transaction, so a
 * page is applied whole or not at all and a retried page changes nothing twice. Then publishes
 * each change on the shore's bus as a local write would be (docs/ship-to-shore.md#the-shore).
 *
 * A ship creates records and changes or deletes only those that came from it: a change of the
 * shore's own record, of another ship's, or a malformed record is refused on its own (recorded
 * for the ship's status and logged) and the rest of the page is applied
 * (docs/security.md#a-followed-ship).
 */
export async function applyChanges(
  ctx: AppContext,
  ship: { id: string },
  changes: readonly unknown[],
  next: string,
): Promise<{ removedFiles: string[]; refused: Refusal[] }> {
  let result: PageResult;
  try {
    result = await applyPage(ctx, ship.id, changes, next, false);
  } catch (err) {
    // A change the checks let through and the database still refused (a constraint): again, each
    // change in a savepoint of its own, so only that change is left out.
    ctx.log.warn({ err, shipId: ship.id }, 'a page from a followed ship failed; applying it change by change');
    result = await applyPage(ctx, ship.id, changes, next, true);
  }
  logRefusals(ctx, ship.id, result.refused);
  for (const file of result.removedFiles) {
    const key = feedFileKey(file);
    if (key) await ctx.store.delete(key);
  }
  for (const publish of result.publications) await publish().catch(() => undefined);
  return { removedFiles: result.removedFiles, refused: result.refused };
}

async function applyPage(
  ctx: AppContext,
  shipId: string,
  changes: readonly unknown[],
  next: string,
  savepoints: boolean,
): Promise<PageResult> {
  const out: PageResult = { publications: [], removedFiles: [], refused: [] };
  const now = ctx.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    for (const raw of changes) {
      const parsed = syncChangeSchema.safeParse(raw);
      if (!parsed.success) {
        out.refused.push({ ...describe(raw), reason: 'Not a change record' });
        continue;
      }
      const change = parsed.data;
      if (savepoints) await sql`savepoint sync_change`.execute(trx);
      const removed: string[] = [];
      try {
        if (change.record_type === 'file') {
          await applyFile(ctx, trx, shipId, change, now, removed);
        } else if (change.record_type === 'recording') {
          await applyRecording(ctx, trx, shipId, change, removed);
        } else if (isTableType(change.record_type)) {
          const p = await applyRecord(ctx, trx, shipId, change.record_type, change);
          if (p) out.publications.push(p);
        }
        if (savepoints) await sql`release savepoint sync_change`.execute(trx);
        out.removedFiles.push(...removed);
      } catch (err) {
        if (!(err instanceof Refused) && !savepoints) throw err;
        if (savepoints) await sql`rollback to savepoint sync_change`.execute(trx);
        if (!(err instanceof Refused)) ctx.log.warn({ err, shipId }, 'a change from a followed ship failed');
        out.refused.push({
          record_type: change.record_type,
          record_id: change.record_id.slice(0, 200),
          reason: err instanceof Refused ? err.message : storeFailed,
        });
      }
    }
    await recordRefusals(trx, shipId, out.refused, now);
    await trx.updateTable('sync_ships').set({ cursor: next }).where('id', '=', shipId).execute();
  });
  return out;
}

function describe(raw: unknown): { record_type: string; record_id: string } {
  const r = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : '?');
  return { record_type: str(r.record_type), record_id: str(r.record_id) };
}

async function recordRefusals(trx: Transaction<DB>, shipId: string, refused: Refusal[], now: number): Promise<void> {
  if (refused.length === 0) return;
  // Only the newest are kept; a page of thousands of refusals stores as many as are kept.
  for (const r of refused.slice(-refusalsKept)) {
    await trx
      .insertInto('sync_refusals')
      .values({ id: newObjectId(), ship_id: shipId, at: now, ...r, reason: r.reason.slice(0, 500) })
      .execute();
  }
  await trx
    .updateTable('sync_ships')
    .set((eb) => ({ refused_count: eb('refused_count', '+', refused.length) }))
    .where('id', '=', shipId)
    .execute();
  const kept = trx
    .selectFrom('sync_refusals')
    .select('id')
    .where('ship_id', '=', shipId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(refusalsKept);
  await trx.deleteFrom('sync_refusals').where('ship_id', '=', shipId).where('id', 'not in', kept).execute();
}

function logRefusals(ctx: AppContext, shipId: string, refused: Refusal[]): void {
  for (const r of refused.slice(0, refusalsLogged)) {
    ctx.log.warn({ shipId, ...r }, 'refused a change from a followed ship');
  }
  if (refused.length > refusalsLogged) {
    ctx.log.warn({ shipId, more: refused.length - refusalsLogged }, 'refused more changes from a followed ship');
  }
}

/** The ship a copied record (or file) came from; undefined for the shore's own. */
async function ownerOf(trx: Transaction<DB>, type: string, id: string): Promise<string | undefined> {
  const row = await trx
    .selectFrom('sync_origins')
    .select('ship_id')
    .where('record_type', '=', type)
    .where('record_id', '=', id)
    .executeTakeFirst();
  return row?.ship_id;
}

async function setOrigin(trx: Transaction<DB>, shipId: string, type: string, id: string): Promise<void> {
  // Only ever this ship's: a record of another ship (or the shore's own) was refused before.
  await trx
    .insertInto('sync_origins')
    .values({ record_type: type, record_id: id, ship_id: shipId })
    .onConflict((oc) => oc.columns(['record_type', 'record_id']).doNothing())
    .execute();
}

const objectId = /^[0-9a-f]{24}$/;

async function applyFile(
  ctx: AppContext,
  trx: Transaction<DB>,
  shipId: string,
  change: SyncChange,
  now: number,
  removed: string[],
): Promise<void> {
  const rel = change.record_id;
  const key = feedFileKey(rel);
  if (!key) throw new Refused('Not a file path the shore keeps');
  const owner = await ownerOf(trx, 'file', rel);
  if (change.op === 'delete') {
    // Its own file it may delete (also after the cruise or lowering it was in went first).
    if (owner === undefined && !(await ctx.store.stat(key))) return;
    if (owner !== shipId) throw new Refused(notThisShipsRecord);
    await trx.deleteFrom('sync_file_queue').where('ship_id', '=', shipId).where('path', '=', rel).execute();
    await trx.deleteFrom('sync_origins').where('record_type', '=', 'file').where('record_id', '=', rel).execute();
    removed.push(rel);
    return;
  }
  // A cruise's or lowering's file belongs to that record: only its ship's records take files.
  const [area, ownerId] = rel.split('/');
  if (area === 'cruises' || area === 'lowerings' || area === recordingArea) {
    const ownerType = area === 'cruises' ? 'cruise' : area === 'lowerings' ? 'lowering' : 'recording';
    const recordOwner = await ownerOf(trx, ownerType, ownerId ?? '');
    if (recordOwner !== shipId) throw new Refused(notThisShipsRecord);
  }
  const record = change.record as unknown as Partial<SyncFileRecord> | null;
  if (typeof record?.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(record.sha256)) {
    throw new Refused('"sha256" must be a SHA-256 (64 hex digits)');
  }
  const size = Number(record.size);
  if (!Number.isSafeInteger(size) || size < 0) throw new Refused('"size" must be a whole number of bytes');
  // A file the shore has of its own (or one another ship sent) is not this ship's to replace.
  if (owner !== shipId && (owner !== undefined || (await ctx.store.stat(key)))) {
    throw new Refused(notThisShipsRecord);
  }
  await setOrigin(trx, shipId, 'file', rel);
  const known = await trx.selectFrom('sync_file_hashes').select('sha256').where('path', '=', rel).executeTakeFirst();
  if (known?.sha256 === record.sha256) return;
  const priorities = record.image ? [thumbnailPriority, filePriority] : [filePriority];
  for (const priority of priorities) {
    const row = {
      ship_id: shipId,
      path: rel,
      sha256: record.sha256,
      size,
      priority,
      added_at: now,
    };
    await trx
      .insertInto('sync_file_queue')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['ship_id', 'path', 'priority']).doUpdateSet({ sha256: row.sha256, size: row.size, added_at: now }),
      )
      .execute();
  }
}

/**
 * A recording from the ship (docs/video.md#ship-to-shore): only on a lowering of the same ship,
 * only over a recording of the same ship; its proxy's file follows in the file queue.
 */
async function applyRecording(
  ctx: AppContext,
  trx: Transaction<DB>,
  shipId: string,
  change: SyncChange,
  removed: string[],
): Promise<void> {
  const id = change.record_id;
  if (!objectId.test(id)) throw new Refused('"record_id" must be a 24-character lower-case hex id');
  // The proxy files this recording keeps in the store now: those it no longer names afterwards go.
  const storedBefore = async () =>
    (await trx.selectFrom('recording_copies').select('uri').where('recording_id', '=', id).execute())
      .map((c) => storedKeyOf(c.uri))
      .filter((k): k is string => k !== null);
  const before = await storedBefore();
  const owner = await ownerOf(trx, 'recording', id);
  const existing = await trx.selectFrom('recordings').select('id').where('id', '=', id).executeTakeFirst();
  if ((existing && owner !== shipId) || (owner !== undefined && owner !== shipId)) {
    throw new Refused(notThisShipsRecord);
  }
  if (change.op === 'delete') {
    if (!existing) return;
    await deleteShipRecording(trx, id);
    await trx.deleteFrom('sync_origins').where('record_type', '=', 'recording').where('record_id', '=', id).execute();
    removed.push(...before);
    return;
  }
  const record = change.record ?? {};
  if ((await ownerOf(trx, 'lowering', String(record.lowering_id))) !== shipId) {
    throw new Refused("The recording's lowering is not this ship's");
  }
  const problem = await storeShipRecording(ctx, trx, id, record);
  if (problem) throw new Refused(problem);
  await setOrigin(trx, shipId, 'recording', id);
  const after = new Set(await storedBefore());
  removed.push(...before.filter((k) => !after.has(k)));
}

/** Only the columns the shore's table has, from what the ship sent. */
function rowOf(type: TableRecordType, record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of syncTables[type].columns) {
    if (record[column] !== undefined) out[column] = record[column];
  }
  return out;
}

async function applyRecord(
  ctx: AppContext,
  trx: Transaction<DB>,
  shipId: string,
  type: TableRecordType,
  change: SyncChange,
): Promise<Publication | null> {
  const spec = syncTables[type];
  const db = trx as unknown as Kysely<Record<string, Record<string, unknown>>>;
  if (change.op === 'delete' && type === 'event' && change.record_id === '*') {
    // A wipe on the ship: every event (and aux record) that came from it.
    const ids = (
      await trx
        .selectFrom('sync_origins')
        .select('record_id')
        .where('ship_id', '=', shipId)
        .where('record_type', '=', 'event')
        .execute()
    ).map((r) => r.record_id);
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      await trx.deleteFrom('event_aux_data').where('event_id', 'in', chunk).execute();
      await trx.deleteFrom('events').where('id', 'in', chunk).execute();
    }
    await trx
      .deleteFrom('sync_origins')
      .where('ship_id', '=', shipId)
      .where('record_type', 'in', ['event', 'event_aux_data'])
      .execute();
    return null;
  }
  const id = change.record_id;
  if (!objectId.test(id)) throw new Refused('"record_id" must be a 24-character lower-case hex id');
  const owner = await ownerOf(trx, type, id);
  const existing = await db.selectFrom(spec.table).selectAll().where('id', '=', id).executeTakeFirst();
  // The shore's own record (no origin), or another ship's: not this ship's to change or delete.
  if ((existing && owner !== shipId) || (owner !== undefined && owner !== shipId)) {
    throw new Refused(notThisShipsRecord);
  }
  if (change.op === 'delete') {
    let aux: Array<Record<string, unknown>> = [];
    if (type === 'event') {
      aux = await trx.selectFrom('event_aux_data').selectAll().where('event_id', '=', id).execute();
      await trx.deleteFrom('event_aux_data').where('event_id', '=', id).execute();
      if (aux.length > 0) {
        await trx
          .deleteFrom('sync_origins')
          .where('record_type', '=', 'event_aux_data')
          .where(
            'record_id',
            'in',
            aux.map((a) => String(a.id)),
          )
          .execute();
      }
    }
    await db.deleteFrom(spec.table).where('id', '=', id).execute();
    await trx.deleteFrom('sync_origins').where('record_type', '=', type).where('record_id', '=', id).execute();
    if (!existing) return null;
    return async () => {
      if (type === 'event') {
        const event = toWireEvent(existing as never);
        ctx.bus.publish('deleteEvents', { ...event, aux_data: aux.map((a) => toWireAux(a as never)) });
      } else if (type === 'event_aux_data') {
        ctx.bus.publish('deleteEventAuxData', toWireAux(existing as never));
      } else if (type === 'event_template') {
        ctx.bus.publish('deleteEventTemplates', { id, _id: id });
      }
    };
  }
  const problem = copiedRecordProblem(type, change.record);
  if (problem) throw new Refused(problem);
  const row = rowOf(type, change.record!);
  if (row.id !== id) throw new Refused('"id" is not the change\'s record_id');
  if (type === 'event_aux_data') await checkAuxPlace(trx, shipId, row);
  const { id: _id, ...rest } = row;
  if (existing) await db.updateTable(spec.table).set(rest).where('id', '=', id).execute();
  else await db.insertInto(spec.table).values(row).execute();
  // Frame grabs a copied record names first are its event's (docs/security.md#who-may-change-an-events-data).
  if (type === 'event_aux_data') await claimImages(trx, String(row.event_id), row.data_array);
  await setOrigin(trx, shipId, type, id);
  const isNew = !existing;
  return async () => publishUpsert(ctx, type, id, row, isNew);
}

/**
 * An aux record goes only on an event of the same ship; one the ship replaced (the same event
 * and source under a new id) gives way to it, anyone else's is not touched.
 */
async function checkAuxPlace(trx: Transaction<DB>, shipId: string, row: Record<string, unknown>): Promise<void> {
  const eventId = String(row.event_id);
  if ((await ownerOf(trx, 'event', eventId)) !== shipId) {
    throw new Refused("The aux record's event is not this ship's");
  }
  const taken = await trx
    .selectFrom('event_aux_data')
    .select('id')
    .where('event_id', '=', eventId)
    .where('data_source', '=', String(row.data_source))
    .where('id', '!=', String(row.id))
    .executeTakeFirst();
  if (!taken) return;
  if ((await ownerOf(trx, 'event_aux_data', taken.id)) !== shipId) throw new Refused(notThisShipsRecord);
  await trx.deleteFrom('event_aux_data').where('id', '=', taken.id).execute();
  await trx
    .deleteFrom('sync_origins')
    .where('record_type', '=', 'event_aux_data')
    .where('record_id', '=', taken.id)
    .execute();
}

async function publishUpsert(
  ctx: AppContext,
  type: TableRecordType,
  id: string,
  row: Record<string, unknown>,
  isNew: boolean,
): Promise<void> {
  switch (type) {
    case 'event': {
      const event = toWireEvent({ ...row, ts: Number(row.ts) } as never);
      // As for local writes: a new event reaches the live consoles only when it is recent.
      if (!isNew) ctx.bus.publish('updateEvents', event);
      else if (shouldPublish(Number(row.ts), true, ctx.now())) ctx.bus.publish('newEvents', event);
      return;
    }
    case 'event_aux_data': {
      if (!isNew) {
        ctx.bus.publish('updateEventAuxData', toWireAux(row as never));
        return;
      }
      const event = await ctx.database.db
        .selectFrom('events')
        .select('ts')
        .where('id', '=', String(row.event_id))
        .executeTakeFirst();
      if (event && shouldPublish(Number(event.ts), true, ctx.now())) {
        ctx.bus.publish('newEventAuxData', toWireAux(row as never));
      }
      return;
    }
    case 'cruise': {
      const wire = await new CruisesService(ctx).published(id);
      if (wire) ctx.bus.publish(isNew ? 'newCruises' : 'updateCruises', wire);
      return;
    }
    case 'lowering': {
      const wire = await new LoweringsService(ctx).published(id);
      if (wire) ctx.bus.publish(isNew ? 'newLowerings' : 'updateLowerings', wire);
      return;
    }
    case 'event_template': {
      const wire = await new EventTemplatesService(ctx).published(id);
      if (wire) ctx.bus.publish(isNew ? 'newEventTemplates' : 'updateEventTemplates', wire);
      return;
    }
  }
}
