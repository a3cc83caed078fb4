import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { visibleEvents, type EventHiding } from '../access/event-access.js';

/** An event with one of its required aux records (none: `data_source` null); `aged`: its data_array when it names a data_age. */
export interface CompletenessRow {
  id: string;
  ts: number;
  event_value: string;
  data_source: string | null;
  aged: string | null;
}

export interface LoweringWindow {
  id: string;
  start_ts: number;
  stop_ts: number;
  lowering_additional_meta: string;
}

/** The reads and writes of data completeness: set-based, one indexed join per question. */
export class CompletenessRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Every event in [lo, hi] (less those the caller may not see) with its records of the required sources,
   * in (ts, id) order: an event without any comes once with `data_source` null.
   */
  async windowRows(
    window: { lo: number; hi: number },
    sources: readonly string[],
    hidden: EventHiding = { shared: [], scoped: [] },
  ): Promise<CompletenessRow[]> {
    const visible = visibleEvents(sql.ref('e.id'), sql.ref('e.ts'), hidden) ?? sql<boolean>`1 = 1`;
    const rows = await sql<CompletenessRow>`SELECT e.id, e.ts, e.event_value, ${this.auxColumns(sources)}
      WHERE e.ts >= ${window.lo} AND e.ts <= ${window.hi} AND ${visible} ORDER BY e.ts, e.id`.execute(this.db);
    return rows.rows.map((r) => ({ ...r, ts: Number(r.ts) }));
  }

  /** The same rows for the given events. */
  async eventRows(eventIds: readonly string[], sources: readonly string[]): Promise<CompletenessRow[]> {
    if (eventIds.length === 0) return [];
    const rows = await sql<CompletenessRow>`SELECT e.id, e.ts, e.event_value, ${this.auxColumns(sources)}
      WHERE e.id IN (${sql.join(eventIds)}) ORDER BY e.ts, e.id`.execute(this.db);
    return rows.rows.map((r) => ({ ...r, ts: Number(r.ts) }));
  }

  private auxColumns(sources: readonly string[]) {
    if (sources.length === 0) return sql`NULL AS data_source, NULL AS aged FROM events e`;
    return sql`a.data_source, CASE WHEN a.data_array LIKE '%data_age%' THEN a.data_array END AS aged
      FROM events e LEFT JOIN event_aux_data a ON a.event_id = e.id AND a.data_source IN (${sql.join(sources)})`;
  }

  /** The id of the newest event the caller may see, if any. */
  async newestEventId(hidden: EventHiding): Promise<string | undefined> {
    const visible = visibleEvents(sql.ref('e.id'), sql.ref('e.ts'), hidden) ?? sql<boolean>`1 = 1`;
    const rows = await sql<{
      id: string;
    }>`SELECT e.id FROM events e WHERE ${visible} ORDER BY e.ts DESC, e.id DESC LIMIT 1`.execute(this.db);
    return rows.rows[0]?.id;
  }

  /** Events with ts in (after, upTo], oldest first: the ones whose grace period ended since the last look. */
  async eventsBetween(after: number, upTo: number): Promise<Array<{ id: string; ts: number }>> {
    const rows = await this.db
      .selectFrom('events')
      .select(['id', 'ts'])
      .where('ts', '>', after)
      .where('ts', '<=', upTo)
      .orderBy('ts')
      .execute();
    return rows.map((r) => ({ id: r.id, ts: Number(r.ts) }));
  }

  /** The lowerings whose window overlaps [lo, hi]. */
  async loweringsOverlapping(lo: number, hi: number): Promise<LoweringWindow[]> {
    const rows = await this.db
      .selectFrom('lowerings')
      .select(['id', 'start_ts', 'stop_ts', 'lowering_additional_meta'])
      .where('start_ts', '<=', hi)
      .where('stop_ts', '>=', lo)
      .orderBy('start_ts', 'desc')
      .execute();
    return rows.map((r) => ({ ...r, start_ts: Number(r.start_ts), stop_ts: Number(r.stop_ts) }));
  }

  async lowering(id: string): Promise<LoweringWindow | undefined> {
    const row = await this.db
      .selectFrom('lowerings')
      .select(['id', 'start_ts', 'stop_ts', 'lowering_additional_meta'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row && { ...row, start_ts: Number(row.start_ts), stop_ts: Number(row.stop_ts) };
  }

  /** The kind and YAML of the enabled aux-data managers marked required (their data source is in the YAML). */
  async requiredManagers(): Promise<Array<{ kind: string; config_yaml: string }>> {
    return this.db
      .selectFrom('aux_managers')
      .select(['kind', 'config_yaml'])
      .where('enabled', '=', 1)
      .where('required', '=', 1)
      .orderBy('name')
      .execute();
  }

  /** The marks (events judged incomplete at the end of their grace period) of the given events. */
  async marksOf(eventIds: readonly string[]): Promise<Map<string, number | null>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('event_completeness_marks')
      .select(['event_id', 'completed_at'])
      .where('event_id', 'in', eventIds)
      .execute();
    return new Map(rows.map((r) => [r.event_id, r.completed_at === null ? null : Number(r.completed_at)]));
  }

  /** The marks of the events in [lo, hi]. */
  async marksWithin(lo: number, hi: number): Promise<Map<string, number | null>> {
    const rows = await this.db
      .selectFrom('event_completeness_marks as m')
      .innerJoin('events as e', 'e.id', 'm.event_id')
      .select(['m.event_id', 'm.completed_at'])
      .where('e.ts', '>=', lo)
      .where('e.ts', '<=', hi)
      .execute();
    return new Map(rows.map((r) => [r.event_id, r.completed_at === null ? null : Number(r.completed_at)]));
  }

  /** Marks the events as judged incomplete (an event already marked keeps its mark). */
  async mark(eventIds: readonly string[], at: number): Promise<void> {
    if (eventIds.length === 0) return;
    await this.db
      .insertInto('event_completeness_marks')
      .values(eventIds.map((event_id) => ({ event_id, judged_at: at, completed_at: null })))
      .onConflict((oc) => oc.column('event_id').doNothing())
      .execute();
  }

  /** Sets (or, with null, clears) when the missing aux data of marked events arrived. */
  async setCompleted(eventIds: readonly string[], at: number | null): Promise<void> {
    if (eventIds.length === 0) return;
    await this.db
      .updateTable('event_completeness_marks')
      .set({ completed_at: at })
      .where('event_id', 'in', eventIds)
      .execute();
  }

  async removeMarks(eventIds: readonly string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.db.deleteFrom('event_completeness_marks').where('event_id', 'in', eventIds).execute();
  }
}
