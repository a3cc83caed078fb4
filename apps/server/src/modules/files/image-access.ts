import type { AppContext } from '../../context.js';
import type { EventAccess } from '../access/event-access.js';
import { attachmentNamePattern } from './attachment-files.js';

/**
 * The event an image file belongs to: an attachment's own event (its name starts with the event
 * id), or the event whose aux record first named a file of that base name (frame grabs: inserters
 * store the path they wrote, clients ask for its base name under the image folder). A later record
 * naming the same file grants nothing (docs/security.md#who-may-change-an-events-data).
 */
async function eventOfImage(ctx: AppContext, name: string): Promise<string | undefined> {
  const attached = attachmentNamePattern.exec(name);
  if (attached) return attached[1]!;
  const owner = await ctx.database.db
    .selectFrom('image_owners')
    .select('event_id')
    .where('name', '=', name)
    .executeTakeFirst();
  return owner?.event_id;
}

/**
 * Whether the caller may load an image (or its thumbnail) under the image folder: always when
 * they may see every event; otherwise only when the event it belongs to is one they may see (an
 * image no event owns is not shown to them).
 */
export async function mayViewImage(
  ctx: AppContext,
  access: EventAccess,
  segments: readonly string[],
): Promise<boolean> {
  if (access.seesEverything) return true;
  const id = await eventOfImage(ctx, segments.at(-1)!);
  if (!id) return false;
  const event = await ctx.database.db.selectFrom('events').select('ts').where('id', '=', id).executeTakeFirst();
  return event !== undefined && (await access.maySeeEvent(ctx.database.db, { id, ts: event.ts }));
}
