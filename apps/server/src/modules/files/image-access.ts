import { sql } from 'kysely';
import type { AuxDataItem } from '@bathylog/shared';
import type { AppContext } from '../../context.js';
import { parseJson } from '../../lib/json.js';
import type { EventAccess } from '../access/event-access.js';
import { auxTextCondition } from '../event-aux-data/aux-data-search.js';
import { attachmentNamePattern } from './attachment-files.js';

/** The last component of a stored path, as clients build image addresses from it. */
function baseName(value: string): string {
  return value.split(/[\\/]/).pop() ?? value;
}

/**
 * The events an image file belongs to: an attachment's own event (its name starts with the event
 * id), and every event with an aux record naming a file of that base name (frame grabs: inserters
 * store the path they wrote, clients ask for its base name under the image folder). The aux-data
 * search index finds the candidate records; each is then checked item by item.
 */
async function eventIdsOfImage(ctx: AppContext, name: string): Promise<string[]> {
  const ids = new Set<string>();
  const attached = attachmentNamePattern.exec(name);
  if (attached) ids.add(attached[1]!);
  const { db, dialect } = ctx.database;
  const text = auxTextCondition(dialect, { include: [name], exclude: [] }, sql.ref('event_aux_data.id'));
  if (text) {
    const rows = await db.selectFrom('event_aux_data').select(['event_id', 'data_array']).where(text).execute();
    for (const row of rows) {
      const items = parseJson<AuxDataItem[]>(row.data_array, []);
      if (items.some((i) => typeof i.data_value === 'string' && baseName(i.data_value) === name)) ids.add(row.event_id);
    }
  }
  return [...ids];
}

/**
 * Whether the caller may load an image (or its thumbnail) under the image folder: always when
 * they may see every event; otherwise only when it belongs to at least one event they may see
 * (an image no event names is not shown to them).
 */
export async function mayViewImage(
  ctx: AppContext,
  access: EventAccess,
  segments: readonly string[],
): Promise<boolean> {
  if (access.seesEverything) return true;
  const ids = await eventIdsOfImage(ctx, segments.at(-1)!);
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await ctx.database.db
      .selectFrom('events')
      .select('ts')
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    if (rows.some((r) => access.maySee(Number(r.ts)))) return true;
  }
  return false;
}
