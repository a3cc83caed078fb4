import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * A proxy copied from a ship is kept in the file store and named by its key
 * (`store:recordings/<recording id>/<copy id><ext>`, docs/video.md#proxies), so a shore on S3
 * plays it too. Copies stored before named the same file by its path under the data folder
 * (`files/recordings/…`): they are named by their key now. Nothing moves: the local store keeps
 * that key at that path.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await sql`UPDATE recording_copies SET uri = 'store:' || substr(uri, 7)
    WHERE role = 'proxy' AND on_ship_only = 0 AND uri LIKE 'files/recordings/%'`.execute(db);
}
