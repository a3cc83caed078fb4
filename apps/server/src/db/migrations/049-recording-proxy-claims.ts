import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * `recordings.proxy_claimed_at` (epoch ms): set while some host makes the recording's proxy and
 * renewed as it works, so two hosts of one installation never make the same proxy
 * (docs/video.md#background-work). A claim not renewed for a minute died with its host.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('recordings').addColumn('proxy_claimed_at', 'bigint').execute();
}
