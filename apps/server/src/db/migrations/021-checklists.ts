import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Checklists (docs/checklists.md): definitions (`checklists`, items as JSON) and one run of each per
 * lowering (`checklist_runs`): the definition as it stood when the run started or was last edited
 * while open (`definition`, JSON), each item's state with who and when (`item_states`, JSON), and
 * when and by whom it completed. Times are epoch ms.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('checklists')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('items', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('checklist_runs')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('checklist_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('lowering_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('item_states', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('completed_by', 'text')
    .execute();
  // One run of a checklist per lowering: two clients starting it at once get the same run.
  await db.schema
    .createIndex('checklist_runs_lowering_checklist')
    .on('checklist_runs')
    .columns(['lowering_id', 'checklist_id'])
    .unique()
    .execute();
  await db.schema.createIndex('checklist_runs_open').on('checklist_runs').columns(['completed_at']).execute();
}
