import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { excludedTs, type TsWindow } from '../access/event-access.js';

/** A lowering's window and what the metrics read of its meta. */
export interface MetricsWindow {
  lo: number;
  hi: number;
  /** ts windows the caller may not see (event access) */
  hidden: readonly TsWindow[];
}

/** The set-based reads of the dive metrics: counts grouped in SQL over the lowering's window. */
export class DiveMetricsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private visible(hidden: readonly TsWindow[]) {
    return excludedTs(sql.ref('events.ts'), hidden) ?? sql<boolean>`1 = 1`;
  }

  /** Event count per value of one column (event_value or event_author) in the window. */
  async countsBy(column: 'event_value' | 'event_author', w: MetricsWindow): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('events')
      .select([`events.${column} as key`, (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('events.ts', '>=', w.lo)
      .where('events.ts', '<=', w.hi)
      .where(this.visible(w.hidden))
      .groupBy(`events.${column}`)
      .execute();
    const out: Record<string, number> = {};
    for (const r of rows) out[r.key] = Number(r.n);
    return out;
  }

  /** The data arrays of the image sources' records of the window's events. */
  async imageRecords(sources: readonly string[], w: MetricsWindow): Promise<string[]> {
    if (sources.length === 0) return [];
    const rows = await this.db
      .selectFrom('events')
      .innerJoin('event_aux_data', 'event_aux_data.event_id', 'events.id')
      .select('event_aux_data.data_array')
      .where('event_aux_data.data_source', 'in', [...sources])
      .where('events.ts', '>=', w.lo)
      .where('events.ts', '<=', w.hi)
      .where(this.visible(w.hidden))
      .execute();
    return rows.map((r) => r.data_array);
  }

  /** The stored lowering_additional_meta of a lowering (JSON text), or undefined when missing. */
  async loweringMeta(id: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('lowerings')
      .select('lowering_additional_meta')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.lowering_additional_meta;
  }
}
