import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AuxDataItem } from '@bathylog/shared';
import { thumbnailFolder } from './thumbnails.js';

/** Stored names: the event id, `_`, 16 random hex digits, and the type's extension. */
export const attachmentNamePattern = /^([0-9a-f]{24})_[0-9a-f]{16}\.(png|jpg)$/;

/** The file names held by an attachments record, in order. */
export function attachedNames(items: readonly AuxDataItem[]): string[] {
  return items.filter((i) => i.data_name === 'filename').map((i) => String(i.data_value));
}

/** Whether an attachment's file is still in the image folder. */
export async function attachmentFileExists(images: string, name: string): Promise<boolean> {
  if (!attachmentNamePattern.test(name)) return false;
  return (await lstat(path.join(images, name)).catch(() => null))?.isFile() === true;
}

/** Deletes attachment files and their cached thumbnails (every width); missing ones are skipped. */
export async function removeAttachmentFiles(images: string, names: readonly string[]): Promise<void> {
  const valid = names.filter((n) => attachmentNamePattern.test(n));
  if (valid.length === 0) return;
  const widths = await readdir(path.join(images, thumbnailFolder)).catch(() => [] as string[]);
  for (const name of valid) {
    await rm(path.join(images, name), { force: true });
    for (const w of widths) await rm(path.join(images, thumbnailFolder, w, `${name}.jpg`), { force: true });
  }
}

/**
 * Deletes every attachment file stored for these events, whatever their records list now: a
 * Sealog 2.4 client may have rewritten the record with the pictures' original names
 * (docs/sealog-clients.md#event-attachments).
 */
export async function removeAttachmentsOfEvents(images: string, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  const ids = new Set(eventIds);
  const names = (await readdir(images).catch(() => [] as string[])).filter((n) =>
    ids.has(attachmentNamePattern.exec(n)?.[1] ?? ''),
  );
  await removeAttachmentFiles(images, names);
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
  images: string,
  exists: (eventIds: string[]) => Promise<Set<string>>,
): Promise<number> {
  const names = (await readdir(images).catch(() => [] as string[])).filter((n) => attachmentNamePattern.test(n));
  if (names.length === 0) return 0;
  const ids = [...new Set(names.map((n) => attachmentNamePattern.exec(n)![1]!))];
  const alive = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) for (const id of await exists(ids.slice(i, i + 500))) alive.add(id);
  const orphans = names.filter((n) => !alive.has(attachmentNamePattern.exec(n)![1]!));
  await removeAttachmentFiles(images, orphans);
  return orphans.length;
}
