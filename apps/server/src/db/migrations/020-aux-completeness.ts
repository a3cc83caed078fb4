import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Events judged incomplete when their grace period for required aux data ended
 * (docs/completeness.md#late-aux-data): a row per such event, written by the completeness job; its
 * `completed_at` is set when the missing aux data arrived later, so the event counts as `late`.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('event_completeness_marks')
    .addColumn('event_id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('judged_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
}
