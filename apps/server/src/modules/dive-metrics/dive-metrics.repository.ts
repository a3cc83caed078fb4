import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { parseJson } from '../../lib/json.js';
import { visibleEvents, type EventHiding } from '../access/event-access.js';

/** A lowering's window and what the metrics read of its meta. */
export interface MetricsWindow {
  lo: number;
  hi: number;
  /** the events the caller may not see (event access) */
  hidden: EventHiding;
}

/** A lowering as the metrics read it: its window, access fields and stored meta (JSON text). */
export interface MetricsLowering {
  id: string;
  humanId: string;
  start_ts: number;
  stop_ts: number;
  hidden: boolean;
  accessList: string[];
  meta: string;
}

/** The set-based reads of the dive metrics: counts grouped in SQL over the lowering's window. */
export class DiveMetricsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private visible(hidden: EventHiding) {
    return visibleEvents(sql.ref('events.id'), sql.ref('events.ts'), hidden) ?? sql<boolean>`1 = 1`;
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

  /** One lowering, or the lowerings lying wholly inside [lo, hi] (a cruise's), earliest start first. */
  async lowerings(which: { id: string } | { lo: number; hi: number }): Promise<MetricsLowering[]> {
    let q = this.db.selectFrom('lowerings').selectAll();
    q =
      'id' in which
        ? q.where('id', '=', which.id)
        : q.where('start_ts', '>=', which.lo).where('stop_ts', '<=', which.hi);
    const rows = await q.orderBy('start_ts').orderBy('id').execute();
    return rows.map((row) => ({
      id: row.id,
      humanId: row.lowering_id,
      start_ts: Number(row.start_ts),
      stop_ts: Number(row.stop_ts),
      hidden: !!row.lowering_hidden,
      accessList: parseJson<string[]>(row.lowering_access_list, []),
      meta: row.lowering_additional_meta,
    }));
  }

  /**
   * The records of one position source of the window's events, in event time order (the track),
   * as the GIS exports read them: the events' time range first, one (event_id, data_source) lookup each.
   */
  async trackRecords(source: string, w: MetricsWindow): Promise<Array<{ ts: number; data_array: string }>> {
    return this.db
      .selectFrom('events')
      .crossJoin('event_aux_data')
      .select(['events.ts', 'event_aux_data.data_array'])
      .whereRef('event_aux_data.event_id', '=', 'events.id')
      .where('event_aux_data.data_source', '=', source)
      .where('events.ts', '>=', w.lo)
      .where('events.ts', '<=', w.hi)
      .where(this.visible(w.hidden))
      .orderBy('events.ts')
      .orderBy('events.id')
      .execute();
  }
}
