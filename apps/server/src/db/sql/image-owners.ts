import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

/** A file name as clients ask for it: the last component of a stored path. */
export function imageBaseName(value: string): string {
  return value.split(/[\\/]/).pop() ?? value;
}

/**
 * The file names an aux record's values name (frame grabs: inserters store the path they wrote,
 * clients ask for its base name under the image folder): each text value whose base name ends in
 * an extension with a letter in it, so `12.345` (a depth) is no file name.
 */
export function imageNamesOf(dataArray: unknown): string[] {
  let items: unknown = dataArray;
  if (typeof items === 'string') {
    try {
      items = JSON.parse(items);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(items)) return [];
  const names = new Set<string>();
  for (const item of items) {
    const value = (item as { data_value?: unknown } | null)?.data_value;
    if (typeof value !== 'string') continue;
    const name = imageBaseName(value.trim());
    if (name.length <= 255 && /\.(?=[0-9]*[a-z])[a-z0-9]{2,5}$/i.test(name)) names.add(name);
  }
  return [...names];
}

/**
 * Records the event that first brought each named image in (docs/security.md#who-may-change-an-events-data):
 * an image already owned keeps its owner, so a later aux record naming it grants nothing.
 */
export async function claimImages(db: Kysely<DB>, eventId: string, dataArray: unknown): Promise<void> {
  const names = imageNamesOf(dataArray);
  if (names.length === 0) return;
  await db
    .insertInto('image_owners')
    .values(names.map((name) => ({ name, event_id: eventId })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}
