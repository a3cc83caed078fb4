import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import {
  EventCsvColumns,
  EventCsvWriter,
  eventCsvHeaderLine,
  flattenEventForCsv,
  messages,
  toIso,
  type CsvEvent,
  type EventAuxData,
  type EventOption,
} from '@bathylog/shared';
import { AppError } from '../../lib/app-error.js';
import { parseJson } from '../../lib/json.js';
import type { AuxRow } from '../event-aux-data/event-aux-data.repository.js';
import type { EventRow } from './event-search.js';

/**
 * Turning rows into what the routes answer: JSON arrays and event CSV, written chunk by chunk so
 * a cruise of any size streams without being held in memory.
 *
 * JSON is assembled from the stored JSON text of options and aux data (our own compact
 * JSON.stringify output) instead of parsing and re-serialising it: exports are mostly aux data,
 * and this triples the export rate.
 */

export const jsonContentType = 'application/json; charset=utf-8';
/** Sealog answered CSV as text/html (docs/wire.md#csv); no client depends on it, so say what it is. */
export const csvContentType = 'text/csv; charset=utf-8';

export interface Output {
  contentType: string;
  body: string | Readable;
}

export function sendOutput(reply: FastifyReply, out: Output) {
  return reply.type(out.contentType).send(out.body);
}

/** A source of chunks that can be read more than once (CSV without known columns reads it twice: columns, then rows). */
export type ChunkSource<T> = () => AsyncIterable<T[]>;

export function mapChunks<T, U>(source: ChunkSource<T>, map: (item: T) => U): ChunkSource<U> {
  return async function* () {
    for await (const chunk of source()) yield chunk.map(map);
  };
}

export interface RecordIdFields {
  cruise_id?: string;
  lowering_id?: string;
}

/** An event row and what the answer adds to it: aux records (exports) and record ids. */
export interface EventItem {
  row: EventRow;
  /** Present for exports: all aux records of the event, in id order. */
  aux?: readonly AuxRow[] | undefined;
  ids: RecordIdFields;
  /** The ship a copied event came from (JSON lists on a shore, docs/ship-to-shore.md#read-only-on-shore). */
  origin?: { ship_id: string; ship_name: string } | undefined;
}

/** Stored JSON list text, or `[]` if a row ever held something else. */
function rawArray(text: string): string {
  const t = text.trim();
  return t.startsWith('[') && t.endsWith(']') ? t : '[]';
}

const str = (value: string) => JSON.stringify(value);

export function recordIdsJson(ids: RecordIdFields): string {
  return (
    (ids.cruise_id !== undefined ? `,"cruise_id":${str(ids.cruise_id)}` : '') +
    (ids.lowering_id !== undefined ? `,"lowering_id":${str(ids.lowering_id)}` : '')
  );
}

/** An event as JSON (docs/wire.md#events), with `aux_data` (no aux ids, docs/wire.md#event-exports) for exports. */
export function eventJson(item: EventItem): string {
  const { row } = item;
  const aux =
    item.aux === undefined
      ? ''
      : `,"aux_data":[${item.aux.map((a) => `{"data_source":${str(a.data_source)},"data_array":${rawArray(a.data_array)}}`).join(',')}]`;
  return (
    `{"event_author":${str(row.event_author)},"ts":"${toIso(row.ts)}","event_value":${str(row.event_value)},` +
    `"event_options":${rawArray(row.event_options)},"event_free_text":${str(row.event_free_text)}${aux},"id":${str(row.id)}${recordIdsJson(item.ids)}${item.origin ? `,"origin":${JSON.stringify(item.origin)}` : ''}}`
  );
}

/** An aux record as JSON (docs/wire.md#event-aux-data). */
export function auxJson(row: AuxRow): string {
  return `{"event_id":${str(row.event_id)},"data_source":${str(row.data_source)},"data_array":${rawArray(row.data_array)},"id":${str(row.id)}}`;
}

export function toWireEvent(row: EventRow) {
  return {
    event_author: row.event_author,
    ts: toIso(row.ts),
    event_value: row.event_value,
    event_options: parseJson<EventOption[]>(row.event_options, []),
    event_free_text: row.event_free_text,
    id: row.id,
  };
}

export function toWireAux(row: AuxRow): EventAuxData {
  return {
    event_id: row.event_id,
    data_source: row.data_source,
    data_array: parseJson<EventAuxData['data_array']>(row.data_array, []),
    id: row.id,
  };
}

/** The event as the CSV flattening takes it (values parsed). */
export function csvEvent(item: EventItem): CsvEvent {
  return {
    ...toWireEvent(item.row),
    ...(item.aux !== undefined
      ? {
          aux_data: item.aux.map((a) => ({
            data_source: a.data_source,
            data_array: parseJson<EventAuxData['data_array']>(a.data_array, []),
          })),
        }
      : {}),
    ...item.ids,
  };
}

const optionNamePattern = /"event_option_name"\s*:\s*("(?:[^"\\]|\\.)*")/g;
const dataNamePattern = /"data_name"\s*:\s*("(?:[^"\\]|\\.)*")/g;

function namesIn(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((m) => JSON.parse(m[1]!) as string);
}

/** The names an event's CSV columns come from, read from the stored JSON without parsing it. */
interface ColumnNames {
  options: string[];
  aux: Array<{ source: string; names: string[] }>;
  ids: RecordIdFields;
}

function columnNames(item: EventItem): ColumnNames {
  return {
    options: namesIn(item.row.event_options, optionNamePattern),
    aux: (item.aux ?? []).map((a) => ({ source: a.data_source, names: namesIn(a.data_array, dataNamePattern) })),
    ids: item.ids,
  };
}

/** Events with the same names have the same columns: the first pass flattens each shape once. */
function shapeKey(names: ColumnNames): string {
  const sep = '\u0000';
  return [
    names.ids.cruise_id !== undefined ? 'c' : '',
    names.ids.lowering_id !== undefined ? 'l' : '',
    names.options.join(sep),
    ...names.aux.map((a) => `${a.source}${sep}${a.names.join(sep)}`),
  ].join('\u0001');
}

/** The same event with names only (values blank): enough to know its CSV columns. */
function columnsEvent(item: EventItem, names: ColumnNames): CsvEvent {
  return {
    id: item.row.id,
    ts: '',
    event_value: '',
    event_author: '',
    event_free_text: '',
    event_options: names.options.map((name) => ({ event_option_name: name, event_option_value: '' })),
    ...(item.aux !== undefined
      ? {
          aux_data: names.aux.map((a) => ({
            data_source: a.source,
            data_array: a.names.map((name) => ({ data_name: name, data_value: '' })),
          })),
        }
      : {}),
    ...item.ids,
  };
}

const noRecords = () => new AppError('NOT_FOUND', messages.noRecords);

/**
 * A JSON array of pre-serialised items, streamed; 404 `No records found` when the source is empty
 * (decided before any byte is sent).
 */
export async function jsonArrayOutput(source: ChunkSource<string>): Promise<Output> {
  return jsonRunsOutput(async function* () {
    for await (const chunk of source()) if (chunk.length > 0) yield chunk.join(',');
  });
}

/** Runs of items: each a non-empty text of items joined by commas (a string, or its UTF-8 bytes). */
export type RunSource = () => AsyncIterable<string | Buffer>;

/** `jsonArrayOutput` of runs (exports: written by the database a chunk at a time). */
export async function jsonRunsOutput(source: RunSource): Promise<Output> {
  return { contentType: jsonContentType, body: await runsBody(source, '[', ',', ']') };
}

/** The stream of `open`, the runs separated by `separator`, and `close`; 404 when there are no runs. */
async function runsBody(source: RunSource, open: string, separator: string, close: string): Promise<Readable> {
  const it = source()[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) throw noRecords();
  const sep = Buffer.from(separator);
  async function* write() {
    try {
      yield Buffer.from(open);
      yield first.value!;
      for (let step = await it.next(); !step.done; step = await it.next()) {
        yield sep;
        yield step.value;
      }
      if (close) yield Buffer.from(close);
    } finally {
      await it.return?.();
    }
  }
  return Readable.from(write(), { objectMode: false });
}

/**
 * Event CSV (docs/wire.md#event-csv), streamed. The header needs every column of every row: this reads
 * the source once for the column names only and once more for the rows (exports of a whole match
 * name their columns from the stored CSV shapes instead and read once: `csvLinesOutput`).
 */
export async function eventCsvOutput(source: ChunkSource<EventItem>): Promise<Output> {
  const columns = new EventCsvColumns();
  const seen = new Set<string>();
  let rows = 0;
  for await (const chunk of source()) {
    for (const item of chunk) {
      const names = columnNames(item);
      const key = shapeKey(names);
      if (seen.has(key)) continue;
      if (seen.size < 10_000) seen.add(key); // bounded: every event could have its own shape

      columns.add(flattenEventForCsv(columnsEvent(item, names)));
    }
    rows += chunk.length;
  }
  if (rows === 0) throw noRecords();
  const header = columns.header();
  const writer = new EventCsvWriter(header);
  return csvLinesOutput(
    header,
    mapChunks(source, (item) => writer.line(csvEvent(item))),
  );
}

/**
 * A CSV document of a known header and runs of lines (each run: lines joined by `\n`), streamed;
 * 404 `No records found` when there are no lines (decided before any byte is sent).
 */
export async function csvRunsOutput(header: readonly string[], source: RunSource): Promise<Output> {
  return { contentType: csvContentType, body: await runsBody(source, `${eventCsvHeaderLine(header)}\n`, '\n', '') };
}

/** `csvRunsOutput` of chunks of lines. */
export async function csvLinesOutput(header: readonly string[], lines: ChunkSource<string>): Promise<Output> {
  return csvRunsOutput(header, async function* () {
    for await (const chunk of lines()) if (chunk.length > 0) yield chunk.join('\n');
  });
}
