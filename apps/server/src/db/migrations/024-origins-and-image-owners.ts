import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import type { DB } from '../schema.js';
import { claimImages } from '../sql/image-owners.js';

/**
 * Two owners recorded once and kept:
 * - `sync_former_ships`: a ship the shore no longer follows, by id and name, so the records copied
 *   from it stay read-only under its name (docs/ship-to-shore.md#read-only-on-shore);
 * - `image_owners`: the event whose aux record first named an image file, the only event the image
 *   is served with (docs/security.md#who-may-change-an-events-data). Filled here from the aux data
 *   already stored, oldest record first.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('sync_former_ships')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('removed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('image_owners')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'varchar(24)', (c) => c.notNull())
    .execute();
  const typed = db as unknown as Kysely<DB>;
  let after = '';
  for (;;) {
    const rows = await typed
      .selectFrom('event_aux_data')
      .select(['id', 'event_id', 'data_array'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    for (const row of rows) await claimImages(typed, row.event_id, row.data_array);
    if (rows.length < 1000) break;
    after = rows[rows.length - 1]!.id;
  }
}
