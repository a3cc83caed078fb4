import { sql, type RawBuilder } from 'kysely';
import { csvFormulaStarts } from '@bathylog/shared';
import type { Dialect } from '../../db/database.js';
import type { WriteWorker } from '../../db/write-worker.js';
import type { Db } from '../events/event-search.js';

/**
 * The queries of the export fast path
 * (docs/performance.md#event-exports-one-read-written-by-the-database), dialect-specific in this
 * one place and tested on both engines. Each keyset chunk is one query: the event and, aggregated
 * per event by the database, its aux records in id order, so nothing is read twice and Node creates
 * no object per aux record. For JSON the database also quotes the strings (its JSON quoting equals
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

/** A CSV export row: the event's columns, and its options and aux records as one JSON array. */
export interface CsvExportRow {
  id: string;
  ts: number;
  /** CSV cells: the id; the ISO time (null outside years 0000–9999: made in Node); value, author, free text (`,…,…,…`). */
  idc: string;
  tsc: string | null;
  /** Null when one of the three starts like a formula: the row is written by csvCell (packages/shared). */
  vaf: string | null;
  /** `[options, source, data_array, source, data_array, …]` from the stored texts (aux in id order). */
  parts: string;
}

export class EventExportsRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    /** SQLite file: the read thread the chunk queries run on (database.ts `readWorker`). */
    private readonly reader: WriteWorker | null = null,
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

  /** The ISO-8601 text of an epoch-ms expression (equal to JavaScript's for years 0000–9999). */
  private iso(ts: RawBuilder<unknown>): RawBuilder<string> {
    return this.dialect === 'postgres'
      ? sql`to_char(timestamp 'epoch' + ${ts} * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${ts} / 1000.0, 'unixepoch')`;
  }

  /**
   * The CSV cell of a text column (csvCell in packages/shared): quoted, inner quotes doubled and,
   * for `lineBreaks`, every CRLF, CR or LF written as the two characters \n first (textCell).
   */
  private csvText(expr: RawBuilder<unknown>, lineBreaks: boolean): RawBuilder<string> {
    const cr = this.dialect === 'postgres' ? sql`chr(13)` : sql`char(13)`;
    const lf = this.dialect === 'postgres' ? sql`chr(10)` : sql`char(10)`;
    const text = lineBreaks
      ? sql`replace(replace(replace(${expr}, ${cr} || ${lf}, '\\n'), ${cr}, '\\n'), ${lf}, '\\n')`
      : expr;
    return sql`'"' || replace(${text}, '"', '""') || '"'`;
  }

  /** Whether a text column starts with a character a spreadsheet reads as the start of a formula. */
  private formulaLike(expr: RawBuilder<unknown>): RawBuilder<boolean> {
    const first = this.dialect === 'postgres' ? sql`left(${expr}, 1)` : sql`substr(${expr}, 1, 1)`;
    return sql`${first} IN (${sql.join(csvFormulaStarts.map((c) => sql.lit(c)))})`;
  }

  /**
   * The rows of a chunk's query. PostgreSQL: without parallel workers (in a transaction of its
   * own): for a chunk of a few thousand rows, starting workers and passing wide rows between
   * processes cost several times the query itself (0.35 s instead of 0.02-0.07 s per chunk).
   */
  private async run<R>(query: RawBuilder<R>): Promise<R[]> {
    if (this.dialect !== 'postgres' || this.db.isTransaction) return (await query.execute(this.db)).rows;
    return this.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL max_parallel_workers_per_gather = 0`.execute(trx);
      return (await query.execute(trx)).rows;
    });
  }

  /**
   * SQLite file: a chunk's query on the read thread, so the next chunk is read there while this
   * thread writes the previous one out (keysetWalk's prefetch) and a long export never holds the
   * event loop for its queries. Rows come back copied (the `transfer` column's BLOB memory handed
   * over, arriving as a Uint8Array). Measured on an idle machine, a CSV export of 100,000 events: 0.76-0.82 s instead
   * of 1.08-1.17, for the same CPU (copying the rows costs what overlapping the query saves, on
   * another core).
   */
  private async runOnReader<R>(query: RawBuilder<R>, transfer?: keyof R & string): Promise<R[]> {
    if (!this.reader || this.db.isTransaction) return this.run(query);
    return this.reader.read<R>(query.compile(this.db), transfer);
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
    const rows = await this.run(this.chunk<JsonExportRow>(select, where, offset, limit));
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
    const order = sql`ORDER BY e.ts ASC, e.id ASC LIMIT ${limit} OFFSET ${offset}`;
    if (this.dialect === 'postgres') {
      // The lines as rows, joined here: aggregating them in the database sorts and copies them again.
      const rows = await this.run(
        sql<{
          ts: string;
          id: string;
          line: string;
          slow: number;
        }>`${this.jsonChunkPostgres(where, recordIds)} ${order}`,
      );
      const last = rows[rows.length - 1];
      const slowRows = rows.reduce((n, r) => n + Number(r.slow), 0);
      const body = last ? rows.map((r) => r.line).join(',') : null;
      return { body, n: rows.length, slow: slowRows, lastTs: Number(last?.ts ?? 0), lastId: last?.id ?? '' };
    }
    const query = sql<{ body: Uint8Array | null; n: number; slow: number; last_ts: number; last_id: string }>`
        WITH c AS MATERIALIZED (${this.jsonChunkSqlite(where, recordIds)} ${order})
        SELECT CAST(group_concat(line, ',' ORDER BY ts, id) AS BLOB) AS body, count(*) AS n, coalesce(sum(slow), 0) AS slow,
          (SELECT ts FROM c ORDER BY ts DESC, id DESC LIMIT 1) AS last_ts,
          (SELECT id FROM c ORDER BY ts DESC, id DESC LIMIT 1) AS last_id
        FROM c`;
    const r = (await this.runOnReader(query, 'body'))[0]!;
    // From the read thread the BLOB arrives as a Uint8Array over the memory it handed over.
    const body =
      r.body && !Buffer.isBuffer(r.body) ? Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength) : r.body;
    return { body, n: Number(r.n), slow: Number(r.slow), lastTs: Number(r.last_ts), lastId: r.last_id };
  }

  /** SQLite: the chunk's events with their JSON lines (`ts`, `id`, `line`, `slow`), before ORDER/LIMIT. */
  private jsonChunkSqlite(where: RawBuilder<boolean>, recordIds: RawBuilder<string>): RawBuilder<unknown> {
    const dataArray = sql.ref('a.data_array');
    const options = sql.ref('e.event_options');
    const item = sql`'{"data_source":' || ${this.quote(sql.ref('a.data_source'))} || ',"data_array":' || ${dataArray} || '}'`;
    const aux = sql`coalesce((SELECT group_concat(${item}, ',' ORDER BY a.id) FROM event_aux_data a WHERE a.event_id = e.id), '')`;
    const bareAux = sql`(SELECT count(*) FROM event_aux_data a WHERE a.event_id = e.id AND ${this.bareArray(dataArray)} IS NULL)`;
    const line = sql`'{"event_author":' || ${this.quote(sql.ref('e.event_author'))} || ',"ts":"' || ${this.iso(sql.ref('e.ts'))}
      || '","event_value":' || ${this.quote(sql.ref('e.event_value'))} || ',"event_options":' || ${options}
      || ',"event_free_text":' || ${this.quote(sql.ref('e.event_free_text'))} || ',"aux_data":[' || ${aux}
      || '],"id":' || ${this.quote(sql.ref('e.id'))} || ${recordIds} || '}'`;
    const slow = sql`CASE WHEN ${this.bareArray(options)} IS NULL OR ${bareAux} > 0 THEN 1 ELSE 0 END`;
    return sql`SELECT e.ts, e.id, ${line} AS line, ${slow} AS slow FROM events e WHERE ${where}`;
  }

  /**
   * PostgreSQL: as SQLite's, with the aux records and their check in one lateral aggregate and
   * each line built by one concat() (a chain of || copies the growing text at every step).
   */
  private jsonChunkPostgres(where: RawBuilder<boolean>, recordIds: RawBuilder<string>): RawBuilder<unknown> {
    const bare = (expr: RawBuilder<unknown>) => sql`(left(${expr}, 1) = '[' AND right(${expr}, 1) = ']')`;
    const aux = sql`SELECT string_agg(concat('{"data_source":', to_json(a.data_source), ',"data_array":', a.data_array, '}'), ',' ORDER BY a.id) AS items,
        bool_and(${bare(sql.ref('a.data_array'))}) AS bare
      FROM event_aux_data a WHERE a.event_id = e.id`;
    const line = sql`concat('{"event_author":', to_json(e.event_author), ',"ts":"', ${this.iso(sql.ref('e.ts'))},
      '","event_value":', to_json(e.event_value), ',"event_options":', e.event_options,
      ',"event_free_text":', to_json(e.event_free_text), ',"aux_data":[', x.items, '],"id":', to_json(e.id), CAST(${recordIds} AS text), '}')`;
    const slow = sql`CASE WHEN ${bare(sql.ref('e.event_options'))} AND coalesce(x.bare, true) THEN 0 ELSE 1 END`;
    return sql`SELECT e.ts, e.id, ${line} AS line, ${slow} AS slow
      FROM events e LEFT JOIN LATERAL (${aux}) x ON true WHERE ${where}`;
  }

  async csvChunk(where: RawBuilder<boolean>, offset: number, limit: number): Promise<CsvExportRow[]> {
    // The stored texts are put together, not checked: a row whose array does not parse is read
    // again the slow way by the caller.
    const agg =
      this.dialect === 'postgres'
        ? sql`string_agg(to_json(a.data_source)::text || ',' || a.data_array, ',' ORDER BY a.id)`
        : sql`group_concat(json_quote(a.data_source) || ',' || a.data_array, ',' ORDER BY a.id)`;
    const select = sql`e.id, e.ts, ${this.csvText(sql.ref('e.id'), false)} AS idc,
      CASE WHEN e.ts >= -62167219200000 AND e.ts <= 253402300799999 THEN '"' || ${this.iso(sql.ref('e.ts'))} || '"' END AS tsc,
      CASE WHEN ${this.formulaLike(sql.ref('e.event_value'))} OR ${this.formulaLike(sql.ref('e.event_author'))}
        OR ${this.formulaLike(sql.ref('e.event_free_text'))} THEN NULL
      ELSE ',' || ${this.csvText(sql.ref('e.event_value'), true)} || ',' || ${this.csvText(sql.ref('e.event_author'), true)}
        || ',' || ${this.csvText(sql.ref('e.event_free_text'), true)} END AS vaf,
      '[' || e.event_options || coalesce((SELECT ',' || ${agg} FROM event_aux_data a WHERE a.event_id = e.id), '') || ']' AS parts`;
    const rows = await this.runOnReader(this.chunk<CsvExportRow>(select, where, offset, limit));
    for (const row of rows) row.ts = Number(row.ts);
    return rows;
  }

  /** How many CSV shapes are stored (the header probes one per shape). */
  async shapeCount(): Promise<number> {
    const r = await sql<{ n: number | string }>`SELECT count(*) AS n FROM csv_shapes`.execute(this.db);
    return Number(r.rows[0]?.n ?? 0);
  }

  /**
   * The CSV shapes (migration 011) of the records of the events matching `where` within [lo, hi]:
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
