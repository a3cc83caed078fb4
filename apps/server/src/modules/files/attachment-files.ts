import { thumbnailWidths, type AuxDataItem } from '@bathylog/shared';
import type { FileStore } from '../../storage/index.js';
import { thumbnailKey } from './thumbnails.js';

/** Stored names: the event id, `_`, 16 random hex digits, and the type's extension. */
export const attachmentNamePattern = /^([0-9a-f]{24})_[0-9a-f]{16}\.(png|jpg)$/;

/** The file names held by an attachments record, in order. */
export function attachedNames(items: readonly AuxDataItem[]): string[] {
  return items.filter((i) => i.data_name === 'filename').map((i) => String(i.data_value));
}

/** The store key of an attachment (or frame grab) in the image folder. */
export function imageKey(name: string): string {
  return `images/${name}`;
}

/** Whether an attachment's file is still in the image folder. */
export async function attachmentFileExists(store: FileStore, name: string): Promise<boolean> {
  if (!attachmentNamePattern.test(name)) return false;
  return (await store.stat(imageKey(name))) !== null;
}

/** Deletes attachment files and their cached thumbnails (every width); missing ones are skipped. */
export async function removeAttachmentFiles(store: FileStore, names: readonly string[]): Promise<void> {
  const valid = names.filter((n) => attachmentNamePattern.test(n));
  for (const name of valid) {
    await store.delete(imageKey(name));
    for (const w of thumbnailWidths) await store.delete(thumbnailKey(imageKey(name), w));
  }
}

/** The names of the attachment files in the image folder (of one event when named). */
async function storedAttachments(store: FileStore, eventId?: string): Promise<string[]> {
  return (await store.list('images/', eventId ? { startsWith: `${eventId}_` } : {}))
    .map((f) => f.key.slice('images/'.length))
    .filter((n) => attachmentNamePattern.test(n));
}

/**
 * Deletes every attachment file stored for these events, whatever their records list now: a
 * Sealog 2.4 client may have rewritten the record with the pictures' original names
 * (docs/sealog-clients.md#event-attachments).
 */
export async function removeAttachmentsOfEvents(store: FileStore, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  for (const id of new Set(eventIds)) await removeAttachmentFiles(store, await storedAttachments(store, id));
}

/**
 * An attachments record's items without the named pictures: each `filename` item naming one goes
 * with the label just before it (`camera_name`, or `source` as the vessel client writes it).
 */
export function withoutAttachment(items: readonly AuxDataItem[], names: readonly string[]): AuxDataItem[] {
  const out: AuxDataItem[] = [];
  for (const item of items) {
    if (item.data_name === 'filename' && names.includes(String(item.data_value))) {
      const label = out.at(-1)?.data_name;
      if (label === 'camera_name' || label === 'source') out.pop();
      continue;
    }
    out.push(item);
  }
  return out;
}

/**
 * Deletes the attachment files whose event no longer exists (after a wipe, which drops every aux
 * record at once). `exists` answers which of the given event ids are still stored.
 */
export async function removeOrphanAttachments(
  store: FileStore,
  exists: (eventIds: string[]) => Promise<Set<string>>,
): Promise<number> {
  const names = await storedAttachments(store);
  if (names.length === 0) return 0;
  const ids = [...new Set(names.map((n) => attachmentNamePattern.exec(n)![1]!))];
  const alive = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) for (const id of await exists(ids.slice(i, i + 500))) alive.add(id);
  const orphans = names.filter((n) => !alive.has(attachmentNamePattern.exec(n)![1]!));
  await removeAttachmentFiles(store, orphans);
  return orphans.length;
}
