import { rm } from 'node:fs/promises';
import { shouldPublish, type SyncChange, type SyncFileRecord } from '@bathylog/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DB } from '../../db/schema.js';
import { claimImages } from '../../db/sql/image-owners.js';
import { copiedFromAnotherShip } from '../../origins/record-origins.js';
import { CruisesService } from '../cruises/cruises.service.js';
import { toWireAux, toWireEvent } from '../events/event-output.js';
import { EventTemplatesService } from '../event-templates/event-templates.service.js';
import { LoweringsService } from '../lowerings/lowerings.service.js';
import { absoluteFilePath } from './sync-files.js';
import { isTableType, syncTables, type TableRecordType } from './sync-records.js';

/** Priorities of the file queue: thumbnails of images first, then whole files. */
export const thumbnailPriority = 0;
export const filePriority = 1;

type Publication = () => Promise<void>;

/**
 * Applies one page of a ship's changes on the shore, in one transaction: upserts by the ship's
 * ids, deletions, files queued by checksum; the ship's cursor moves in the same transaction, so a
 * page is applied whole or not at all and a retried page changes nothing twice. Then publishes
 * each change on the shore's bus as a local write would be (docs/ship-to-shore.md#the-shore).
 */
export async function applyChanges(
  ctx: AppContext,
  ship: { id: string },
  changes: readonly SyncChange[],
  next: string,
): Promise<{ removedFiles: string[] }> {
  const publications: Publication[] = [];
  const removedFiles: string[] = [];
  const now = ctx.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    for (const change of changes) {
      if (change.record_type === 'file') {
        await applyFile(trx, ship.id, change, now, removedFiles);
      } else if (isTableType(change.record_type)) {
        const p = await applyRecord(ctx, trx, ship.id, change.record_type, change);
        if (p) publications.push(p);
      }
    }
    await trx.updateTable('sync_ships').set({ cursor: next }).where('id', '=', ship.id).execute();
  });
  for (const file of removedFiles) {
    const abs = absoluteFilePath(ctx, file);
    if (abs) await rm(abs, { force: true });
  }
  for (const publish of publications) await publish().catch(() => undefined);
  return { removedFiles };
}

async function setOrigin(trx: Transaction<DB>, shipId: string, type: string, id: string): Promise<void> {
  await trx
    .insertInto('sync_origins')
    .values({ record_type: type, record_id: id, ship_id: shipId })
    .onConflict((oc) => oc.columns(['record_type', 'record_id']).doUpdateSet({ ship_id: shipId }))
    .execute();
}

async function applyFile(
  trx: Transaction<DB>,
  shipId: string,
  change: SyncChange,
  now: number,
  removed: string[],
): Promise<void> {
  const rel = change.record_id;
  if (change.op === 'delete') {
    await trx.deleteFrom('sync_file_queue').where('ship_id', '=', shipId).where('path', '=', rel).execute();
    await trx.deleteFrom('sync_origins').where('record_type', '=', 'file').where('record_id', '=', rel).execute();
    removed.push(rel);
    return;
  }
  const record = change.record as unknown as SyncFileRecord;
  if (typeof record?.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(record.sha256)) return;
  await setOrigin(trx, shipId, 'file', rel);
  const known = await trx.selectFrom('sync_file_hashes').select('sha256').where('path', '=', rel).executeTakeFirst();
  if (known?.sha256 === record.sha256) return;
  const priorities = record.image ? [thumbnailPriority, filePriority] : [filePriority];
  for (const priority of priorities) {
    const row = {
      ship_id: shipId,
      path: rel,
      sha256: record.sha256,
      size: Number(record.size) || 0,
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
  // Another ship's copies (one followed, or one no longer followed) are not this ship's to change,
  // nor are its events' aux data (docs/ship-to-shore.md#read-only-on-shore).
  if (change.record_id !== '*' && (await copiedFromAnotherShip(trx, shipId, type, change.record_id))) return null;
  const eventOf = type === 'event_aux_data' ? change.record?.event_id : undefined;
  if (typeof eventOf === 'string' && (await copiedFromAnotherShip(trx, shipId, 'event', eventOf))) return null;
  if (change.op === 'delete') {
    if (type === 'event' && change.record_id === '*') {
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
    const existing = await db.selectFrom(spec.table).selectAll().where('id', '=', change.record_id).executeTakeFirst();
    let aux: Array<Record<string, unknown>> = [];
    if (type === 'event') {
      aux = await trx.selectFrom('event_aux_data').selectAll().where('event_id', '=', change.record_id).execute();
      await trx.deleteFrom('event_aux_data').where('event_id', '=', change.record_id).execute();
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
    await db.deleteFrom(spec.table).where('id', '=', change.record_id).execute();
    await trx
      .deleteFrom('sync_origins')
      .where('record_type', '=', type)
      .where('record_id', '=', change.record_id)
      .execute();
    if (!existing) return null;
    return async () => {
      if (type === 'event') {
        const event = toWireEvent(existing as never);
        ctx.bus.publish('deleteEvents', { ...event, aux_data: aux.map((a) => toWireAux(a as never)) });
      } else if (type === 'event_aux_data') {
        ctx.bus.publish('deleteEventAuxData', toWireAux(existing as never));
      } else if (type === 'event_template') {
        ctx.bus.publish('deleteEventTemplates', { id: change.record_id, _id: change.record_id });
      }
    };
  }
  if (!change.record) return null;
  const row = rowOf(type, change.record);
  if (row.id !== change.record_id) return null;
  const existed = await db.selectFrom(spec.table).select('id').where('id', '=', change.record_id).executeTakeFirst();
  const { id: _id, ...rest } = row;
  if (existed) await db.updateTable(spec.table).set(rest).where('id', '=', change.record_id).execute();
  else await db.insertInto(spec.table).values(row).execute();
  // Frame grabs a copied record names first are its event's (docs/security.md#who-may-change-an-events-data).
  if (type === 'event_aux_data') await claimImages(trx, String(row.event_id), row.data_array);
  await setOrigin(trx, shipId, type, change.record_id);
  const isNew = !existed;
  return async () => publishUpsert(ctx, type, change.record_id, row, isNew);
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
