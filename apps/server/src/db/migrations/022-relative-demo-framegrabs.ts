import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The demo dive's frame grabs were stored with absolute disk paths
 * (`<data dir>/files/images/S0492_MainCam_20230314_221539479.jpg`); the stock and WHOI clients ask
 * for `files/images/<stored value>` as it stands and got 404 in the replay and the gallery. This
 * stores them relative to the images folder, as the Sealog inserters do
 * (docs/sealog-clients.md#frame-grab-paths). Only what the demo loader wrote is changed: a
 * `filename` of its frame-grab source whose value is an absolute path to `files/images/` ending in
 * a demo camera's file name. Anything a vessel stored itself stays exactly as it was.
 */
const demoSource = 'vehicleRealtimeFramegrabberData';
const demoPath = /^(?:\/|[A-Za-z]:[\\/]).*[\\/]files[\\/]images[\\/]([^\\/]+_(?:MainCam|ScienceCam)_\d{8}_\d{9}\.jpg)$/;

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const { rows } = await sql<{ id: string; data_array: string }>`
    SELECT id, data_array FROM event_aux_data
    WHERE data_source = ${demoSource} AND data_array LIKE ${'%files%images%'}`.execute(db);
  for (const row of rows) {
    let items: unknown;
    try {
      items = JSON.parse(row.data_array);
    } catch {
      continue;
    }
    if (!Array.isArray(items)) continue;
    let changed = false;
    const next = items.map((item: unknown) => {
      if (!item || typeof item !== 'object') return item;
      const { data_name: name, data_value: value } = item as { data_name?: unknown; data_value?: unknown };
      const match = name === 'filename' && typeof value === 'string' ? demoPath.exec(value) : null;
      if (!match) return item;
      changed = true;
      return { ...item, data_value: match[1] };
    });
    if (changed) {
      await sql`UPDATE event_aux_data SET data_array = ${JSON.stringify(next)} WHERE id = ${row.id}`.execute(db);
    }
  }
}
