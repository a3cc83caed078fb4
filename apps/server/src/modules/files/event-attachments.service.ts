import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  eventAttachmentCameraName,
  eventAttachmentsDataSource,
  mayAttachToEvent,
  maxEventAttachments,
  type AuxDataItem,
} from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { parseJson } from '../../lib/json.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { EventAccess } from '../access/event-access.js';
import { fileChange, recordChange } from '../audit/audit.js';
import { EventAuxDataRepository } from '../event-aux-data/event-aux-data.repository.js';
import { EventAuxDataService } from '../event-aux-data/event-aux-data.service.js';
import { EventsRepository } from '../events/events.repository.js';
import {
  attachedNames,
  attachmentNamePattern,
  imageKey,
  removeAttachmentFiles,
  withoutAttachment,
} from './attachment-files.js';

/** An upload's own name without any folder, or '' when it has none usable (at most 255 characters). */
function uploadBaseName(name: string): string {
  const base = name.split(/[\\/]/).pop()?.trim() ?? '';
  return base.length > 0 && base.length <= 255 && base !== '.' && base !== '..' ? base : '';
}

const owner = (eventId: string) => ({ record_type: 'event' as const, record_id: eventId });

/**
 * The first `n` bytes of a stream (fewer when it is shorter), and a stream of all its bytes: the
 * picture's type is known before anything is stored, so it is stored once, under its final name.
 */
async function peek(stream: Readable, n: number): Promise<{ head: Buffer; body: Readable }> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < n) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks).subarray(0, n);
  async function* all(): AsyncGenerator<Buffer> {
    yield* chunks;
    if (ended) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head, body: Readable.from(all(), { objectMode: false }) };
}

/** The picture types an attachment may be, by their first bytes. */
function sniffPicture(head: Buffer): 'png' | 'jpg' | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  return null;
}

/**
 * Pictures attached to events (Sealog 2.4): stored in the image folder under a name starting with
 * the event id, and listed in the event's `eventFileAttachments` aux record as (camera_name,
 * filename) pairs, which the image panels already show. Only the event's author, admins and event
 * managers attach or remove; a refused or failed upload leaves no file and no entry behind.
 */
export class EventAttachmentsService {
  constructor(private readonly ctx: AppContext) {}

  private async eventFor(caller: AuthContext, eventId: string, action: 'attach' | 'remove', access: EventAccess) {
    const event = await new EventsRepository(this.ctx.database.db).findById(eventId);
    // An event the caller may not see is answered as one that does not exist.
    if (!event || !(await access.maySeeEvent(this.ctx.database.db, event)))
      throw new AppError('NOT_FOUND', `No record found for id: ${eventId}`);
    const allowed = caller.isAdmin || mayAttachToEvent(caller.user, event);
    if (!allowed) {
      throw new AppError(
        'FORBIDDEN',
        `Only the event's author, admins and event managers can ${action} pictures ${action === 'attach' ? 'to' : 'from'} this event`,
      );
    }
    return event;
  }

  private async record(eventId: string) {
    const row = await new EventAuxDataRepository(this.ctx.database.db).findByEventAndSource(
      eventId,
      eventAttachmentsDataSource,
    );
    return { row, items: row ? parseJson<AuxDataItem[]>(row.data_array, []) : [] };
  }

  /**
   * How many pictures an event holds: those its record lists, or those stored for it when more
   * (a client may have deleted the record, which keeps the pictures: they still count).
   */
  private async pictureCount(eventId: string, items: readonly AuxDataItem[]): Promise<number> {
    const rows = await this.ctx.database.db
      .selectFrom('event_attachment_files')
      .select('name')
      .where('event_id', '=', eventId)
      .execute();
    let stored = 0;
    for (const row of rows) if (await this.ctx.store.stat(imageKey(row.name))) stored++;
    return Math.max(attachedNames(items).length, stored);
  }

  private async assertRoom(eventId: string): Promise<AuxDataItem[]> {
    const { items } = await this.record(eventId);
    if ((await this.pictureCount(eventId, items)) >= maxEventAttachments)
      throw new AppError('BAD_REQUEST', `An event holds at most ${maxEventAttachments} pictures`);
    return items;
  }

  /** Checks that an event may take one more picture (before its bytes are read). */
  async assertCanAttach(caller: AuthContext, eventId: string, access: EventAccess): Promise<void> {
    await this.eventFor(caller, eventId, 'attach', access);
    await this.assertRoom(eventId);
  }

  /**
   * Stores one picture and lists it on the event; answers the stored file name (FilePond's id).
   * `originalName` (the upload's own name) is kept so the Sealog 2.4 vehicle client, which lists
   * the picture by it, finds the picture (docs/sealog-clients.md#event-attachments).
   */
  async attach(
    caller: AuthContext,
    eventId: string,
    file: Readable,
    access: EventAccess,
    originalName = '',
  ): Promise<string> {
    await this.assertCanAttach(caller, eventId, access);
    const stem = `${eventId}_${randomBytes(8).toString('hex')}`;
    let stored: string | null = null;
    try {
      const { head, body } = await peek(file, 8);
      const type = sniffPicture(head);
      if (!type) {
        // The rest of the upload is read (and dropped) so the request ends cleanly.
        for await (const chunk of body) void chunk;
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Only PNG and JPEG pictures can be attached');
      }
      stored = `${stem}.${type}`;
      await this.ctx.store.put(imageKey(stored), body, { contentType: type === 'png' ? 'image/png' : 'image/jpeg' });
      // Re-read just before writing: another upload may have filled the event meanwhile.
      const items = await this.assertRoom(eventId);
      await this.ctx.database.db
        .insertInto('event_attachment_files')
        .values({
          name: stored,
          event_id: eventId,
          original_name: uploadBaseName(originalName),
          created_at: Date.now(),
        })
        .execute();
      await new EventAuxDataService(this.ctx).create(
        caller,
        {
          event_id: eventId,
          data_source: eventAttachmentsDataSource,
          data_array: [
            ...items,
            { data_name: 'camera_name', data_value: eventAttachmentCameraName },
            { data_name: 'filename', data_value: stored },
          ],
        },
        access,
        { attachments: true },
      );
      await recordChange(this.ctx.database.db, caller, fileChange('upload', owner(eventId), [stored]));
      return stored;
    } catch (err) {
      if (stored) {
        await this.ctx.store.delete(imageKey(stored)).catch(() => undefined);
        await this.forgetName(stored);
      }
      throw err;
    }
  }

  private async forgetName(stored: string): Promise<void> {
    await this.ctx.database.db.deleteFrom('event_attachment_files').where('name', '=', stored).execute();
  }

  /**
   * The stored attachment a Sealog 2.4 client means by a name: the stored name itself, or an
   * original upload name (the vehicle client's), newest first among the events the caller may
   * see (and of `eventId` when the client named one). Null when none is on disk.
   */
  async resolve(
    name: string,
    access: EventAccess,
    eventId?: string,
  ): Promise<{ stored: string; eventId: string } | null> {
    const own = attachmentNamePattern.exec(name);
    if (own) return !eventId || own[1] === eventId ? { stored: name, eventId: own[1]! } : null;
    const original = uploadBaseName(name);
    if (!original) return null;
    let q = this.ctx.database.db
      .selectFrom('event_attachment_files as f')
      .innerJoin('events as e', 'e.id', 'f.event_id')
      .select(['f.name', 'f.event_id', 'e.ts'])
      .where('f.original_name', '=', original)
      .orderBy('f.created_at', 'desc')
      .limit(100);
    if (eventId) q = q.where('f.event_id', '=', eventId);
    for (const row of await q.execute()) {
      if (!(await access.maySeeEvent(this.ctx.database.db, { id: row.event_id, ts: row.ts }))) continue;
      if (await this.ctx.store.stat(imageKey(row.name))) return { stored: row.name, eventId: row.event_id };
    }
    return null;
  }

  /**
   * Removes one picture: its file and its pair in the event's record (the record goes with the
   * last one). `listedAs` is the name the record lists it by when that is not the stored name
   * (the vehicle client's original name).
   */
  async remove(caller: AuthContext, name: string, access: EventAccess, listedAs?: string): Promise<void> {
    const match = attachmentNamePattern.exec(name);
    if (!match) throw new AppError('BAD_REQUEST', `Invalid attachment: ${name}`);
    const eventId = match[1]!;
    await this.eventFor(caller, eventId, 'remove', access);
    const { row, items } = await this.record(eventId);
    const names = listedAs ? [name, listedAs] : [name];
    const listed = items.some((i) => i.data_name === 'filename' && names.includes(String(i.data_value)));
    const onStore = (await this.ctx.store.stat(imageKey(name))) !== null;
    if (!listed && !onStore) throw new AppError('NOT_FOUND', `No attachment found: ${name}`);
    if (row && listed) {
      const rest = withoutAttachment(items, names);
      const service = new EventAuxDataService(this.ctx);
      if (attachedNames(rest).length === 0) await service.remove(caller, row.id, access, { attachments: true });
      else
        await service.create(
          caller,
          { event_id: eventId, data_source: eventAttachmentsDataSource, data_array: rest },
          access,
          { attachments: true },
        );
    }
    if (onStore) await removeAttachmentFiles(this.ctx.store, [name]);
    await this.forgetName(name);
    await recordChange(this.ctx.database.db, caller, fileChange('delete', owner(eventId), [name]));
  }
}
