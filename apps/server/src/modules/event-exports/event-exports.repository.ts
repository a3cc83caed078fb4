import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Db } from '../events/event-search.js';

/**
 * The queries of the export fast path (issue 13), dialect-specific in this one place and tested on
 * both engines. Each keyset chunk is one query: the event and, aggregated per event by the
 * database, its aux records in id order, so nothing is read twice and Node creates no object per
 * aux record. For JSON the database also quotes the strings (its JSON quoting equals
 * JSON.stringify's: checked for every UTF-16 character in the tests) and Node only concatenates.
 */

/** A JSON export row: `head` + ISO ts + `mid` + aux + record ids + '}' is the event's JSON. */
export interface JsonExportRow {
  id: string;
  ts: number;
  /** `{"event_author":"…","ts":"` */
  head: string;
  /**
   * `","event_value":…,"event_options":[…],"event_free_text":"…"`, or null when the stored options
   * are not a bare JSON array (then the row is written the slow way, exactly as before).
   */
  mid: string | null;
  /** `1` + the aux_data items joined by commas; `0`… when a data array is not a bare JSON array; null without aux. */
  aux: string | null;
  /** The id, JSON-quoted. */
  idq: string;
}

/** A CSV export row: the event's columns, and its aux records as one JSON array [source, data, source, data, …]. */
export interface CsvExportRow {
  id: string;
  ts: number;
  event_author: string;
  event_value: string;
  event_free_text: string;
  event_options: string;
  /** Null when the event has no aux records. */
  aux: string | null;
}

export class EventExportsRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  private quote(expr: RawBuilder<unknown>): RawBuilder<string> {
    return this.dialect === 'postgres' ? sql`to_json(${expr})::text` : sql`json_quote(${expr})`;
  }

  /** `expr` if it starts with `[` and ends with `]` (what the JSON writer embeds as is), else null. */
  private bareArray(expr: RawBuilder<unknown>): RawBuilder<string> {
    return this.dialect === 'postgres'
      ? sql`CASE WHEN left(${expr}, 1) = '[' AND right(${expr}, 1) = ']' THEN ${expr} END`
      : sql`CASE WHEN substr(${expr}, 1, 1) = '[' AND substr(${expr}, -1, 1) = ']' THEN ${expr} END`;
  }

  private chunk<T>(select: RawBuilder<unknown>, where: RawBuilder<boolean>, offset: number, limit: number) {
    return sql<T>`SELECT ${select} FROM events e WHERE ${where} ORDER BY e.ts ASC, e.id ASC LIMIT ${limit} OFFSET ${offset}`;
  }

  async jsonChunk(where: RawBuilder<boolean>, offset: number, limit: number): Promise<JsonExportRow[]> {
    const dataArray = sql.ref('a.data_array');
    const item = sql`'{"data_source":' || ${this.quote(sql.ref('a.data_source'))} || ',"data_array":' || ${dataArray} || '}'`;
    const aux =
      this.dialect === 'postgres'
        ? sql`(SELECT min(CASE WHEN ${this.bareArray(dataArray)} IS NULL THEN '0' ELSE '1' END) || coalesce(string_agg(${item}, ',' ORDER BY a.id), '')
            FROM event_aux_data a WHERE a.event_id = e.id)`
        : sql`(SELECT min(CASE WHEN ${this.bareArray(dataArray)} IS NULL THEN '0' ELSE '1' END) || coalesce(group_concat(${item}, ',' ORDER BY a.id), '')
            FROM event_aux_data a WHERE a.event_id = e.id)`;
    const select = sql`e.id, e.ts,
      '{"event_author":' || ${this.quote(sql.ref('e.event_author'))} || ',"ts":"' AS head,
      '","event_value":' || ${this.quote(sql.ref('e.event_value'))} || ',"event_options":' || ${this.bareArray(sql.ref('e.event_options'))}
        || ',"event_free_text":' || ${this.quote(sql.ref('e.event_free_text'))} AS mid,
      ${aux} AS aux, ${this.quote(sql.ref('e.id'))} AS idq`;
    const rows = (await this.chunk<JsonExportRow>(select, where, offset, limit).execute(this.db)).rows;
    for (const row of rows) row.ts = Number(row.ts);
    return rows;
  }

  /**
   * A JSON chunk written wholly by the database: the events' JSON texts joined by commas (SQLite:
   * as bytes, never a JS string), their count, how many need the slow way (then the caller reads
   * the chunk again row by row), and the last event (the next chunk's cursor). `recordIds`: an
   * expression over `e.ts` giving the record-id members (`,"cruise_id":"…"` …). Only for windows
   * within years 0000–9999, where the database's ISO time equals JavaScript's.
   */
  async jsonText(
    where: RawBuilder<boolean>,
    offset: number,
    limit: number,
    recordIds: RawBuilder<string>,
  ): Promise<{ body: Buffer | string | null; n: number; slow: number; lastTs: number; lastId: string }> {
    const pg = this.dialect === 'postgres';
    const dataArray = sql.ref('a.data_array');
    const options = sql.ref('e.event_options');
    const item = sql`'{"data_source":' || ${this.quote(sql.ref('a.data_source'))} || ',"data_array":' || ${dataArray} || '}'`;
    const aux = pg
      ? sql`coalesce((SELECT string_agg(${item}, ',' ORDER BY a.id) FROM event_aux_data a WHERE a.event_id = e.id), '')`
      : sql`coalesce((SELECT group_concat(${item}, ',' ORDER BY a.id) FROM event_aux_data a WHERE a.event_id = e.id), '')`;
    const bareAux = sql`(SELECT count(*) FROM event_aux_data a WHERE a.event_id = e.id AND ${this.bareArray(dataArray)} IS NULL)`;
    const iso = pg
      ? sql`to_char(timestamp 'epoch' + e.ts * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : sql`strftime('%Y-%m-%dT%H:%M:%fZ', e.ts / 1000.0, 'unixepoch')`;
    const line = sql`'{"event_author":' || ${this.quote(sql.ref('e.event_author'))} || ',"ts":"' || ${iso}
      || '","event_value":' || ${this.quote(sql.ref('e.event_value'))} || ',"event_options":' || ${options}
      || ',"event_free_text":' || ${this.quote(sql.ref('e.event_free_text'))} || ',"aux_data":[' || ${aux}
      || '],"id":' || ${this.quote(sql.ref('e.id'))} || ${recordIds} || '}'`;
    const slow = sql`CASE WHEN ${this.bareArray(options)} IS NULL OR ${bareAux} > 0 THEN 1 ELSE 0 END`;
    const chunk = sql`SELECT e.ts, e.id, ${line} AS line, ${slow} AS slow FROM events e WHERE ${where}
      ORDER BY e.ts ASC, e.id ASC LIMIT ${limit} OFFSET ${offset}`;
    const query = pg
      ? sql<{ body: string | null; n: string; slow: string; last_ts: string; last_id: string }>`
        WITH c AS MATERIALIZED (${chunk})
        SELECT string_agg(line, ',' ORDER BY ts, id) AS body, count(*) AS n, coalesce(sum(slow), 0) AS slow,
          (SELECT ts FROM c ORDER BY ts DESC, id DESC LIMIT 1) AS last_ts,
          (SELECT id FROM c ORDER BY ts DESC, id DESC LIMIT 1) AS last_id
        FROM c`
      : sql<{ body: Buffer | null; n: number; slow: number; last_ts: number; last_id: string }>`
        WITH c AS MATERIALIZED (${chunk})
        SELECT CAST(group_concat(line, ',' ORDER BY ts, id) AS BLOB) AS body, count(*) AS n, coalesce(sum(slow), 0) AS slow,
          (SELECT ts FROM c ORDER BY ts DESC, id DESC LIMIT 1) AS last_ts,
          (SELECT id FROM c ORDER BY ts DESC, id DESC LIMIT 1) AS last_id
        FROM c`;
    const r = (await query.execute(this.db)).rows[0]!;
    return { body: r.body, n: Number(r.n), slow: Number(r.slow), lastTs: Number(r.last_ts), lastId: r.last_id };
  }

  async csvChunk(where: RawBuilder<boolean>, offset: number, limit: number): Promise<CsvExportRow[]> {
    // SQLite checks each data array (an invalid one reads as [], as before); PostgreSQL cannot
    // cheaply, so a row whose aggregate does not parse is read again the slow way.
    const aux =
      this.dialect === 'postgres'
        ? sql`(SELECT '[' || string_agg(to_json(a.data_source)::text || ',' || CASE WHEN a.data_array LIKE '[%' THEN a.data_array ELSE '[]' END, ',' ORDER BY a.id) || ']'
            FROM event_aux_data a WHERE a.event_id = e.id)`
        : sql`(SELECT '[' || group_concat(json_quote(a.data_source) || ',' || CASE WHEN json_valid(a.data_array) THEN a.data_array ELSE '[]' END, ',' ORDER BY a.id) || ']'
            FROM event_aux_data a WHERE a.event_id = e.id)`;
    const select = sql`e.id, e.ts, e.event_author, e.event_value, e.event_free_text, e.event_options, ${aux} AS aux`;
    const rows = (await this.chunk<CsvExportRow>(select, where, offset, limit).execute(this.db)).rows;
    for (const row of rows) row.ts = Number(row.ts);
    return rows;
  }

  /** How many CSV shapes are stored (the header probes one per shape). */
  async shapeCount(): Promise<number> {
    const r = await sql<{ n: number | string }>`SELECT count(*) AS n FROM csv_shapes`.execute(this.db);
    return Number(r.rows[0]?.n ?? 0);
  }

  /**
   * The CSV shapes (migration 010) of the records of the events matching `where` within [lo, hi]:
   * one index probe per stored shape, the first matching event ends it; no row is read otherwise.
   */
  async shapesWithin(where: RawBuilder<boolean>, lo: number, hi: number): Promise<string[]> {
    const hit = sql`SELECT 1 FROM event_csv_shapes x CROSS JOIN events e
      WHERE x.shape_id = s.id AND x.ts >= ${lo} AND x.ts <= ${hi} AND e.id = x.event_id AND ${where}`;
    // PostgreSQL: LIMIT 1 in a lateral subquery keeps it a probe per shape (a semi-join could scan).
    const query =
      this.dialect === 'postgres'
        ? sql<{ shape: string }>`SELECT s.shape FROM csv_shapes s CROSS JOIN LATERAL (${hit} LIMIT 1) h ORDER BY s.id`
        : sql<{ shape: string }>`SELECT s.shape FROM csv_shapes s WHERE EXISTS (${hit}) ORDER BY s.id`;
    return (await query.execute(this.db)).rows.map((r) => r.shape);
  }
}
