import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The original file name of each event attachment (docs/sealog-clients.md#event-attachments): the
 * Sealog 2.4 vehicle client lists a picture by the name it had on the user's disk, not by the name
 * the server stored it under, and asks for `/files/images/<that name>`.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('event_attachment_files')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('event_attachment_files_original')
    .on('event_attachment_files')
    .columns(['original_name', 'created_at'])
    .execute();
}
