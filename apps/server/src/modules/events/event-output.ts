import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import {
  EventCsvColumns,
  eventCsvHeaderLine,
  eventCsvLine,
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
/** Sealog answered CSV as text/html (reference §2.8); no client depends on it, so say what it is. */
export const csvContentType = 'text/csv; charset=utf-8';

export interface Output {
  contentType: string;
  body: string | Readable;
}

export function sendOutput(reply: FastifyReply, out: Output) {
  return reply.type(out.contentType).send(out.body);
}

/** A source of chunks that can be read more than once (CSV without known shapes reads it twice: columns, then rows). */
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
}

/** Stored JSON list text, or `[]` if a row ever held something else. */
function rawArray(text: string): string {
  const t = text.trim();
  return t.startsWith('[') && t.endsWith(']') ? t : '[]';
}

const str = (value: string) => JSON.stringify(value);

function recordIdsJson(ids: RecordIdFields): string {
  return (
    (ids.cruise_id !== undefined ? `,"cruise_id":${str(ids.cruise_id)}` : '') +
    (ids.lowering_id !== undefined ? `,"lowering_id":${str(ids.lowering_id)}` : '')
  );
}

/** An event as JSON (reference §5.6), with `aux_data` (no aux ids, reference §5.8) for exports. */
export function eventJson(item: EventItem): string {
  const { row } = item;
  const aux =
    item.aux === undefined
      ? ''
      : `,"aux_data":[${item.aux.map((a) => `{"data_source":${str(a.data_source)},"data_array":${rawArray(a.data_array)}}`).join(',')}]`;
  return (
    `{"event_author":${str(row.event_author)},"ts":"${toIso(row.ts)}","event_value":${str(row.event_value)},` +
    `"event_options":${rawArray(row.event_options)},"event_free_text":${str(row.event_free_text)}${aux},"id":${str(row.id)}${recordIdsJson(item.ids)}}`
  );
}

/** An aux record as JSON (reference §5.7). */
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

async function nextNonEmpty<T>(it: AsyncIterator<T[]>): Promise<T[] | null> {
  for (;;) {
    const step = await it.next();
    if (step.done) return null;
    if (step.value.length > 0) return step.value;
  }
}

/**
 * A JSON array of pre-serialised items, streamed; 404 `No records found` when the source is empty
 * (decided before any byte is sent).
 */
export async function jsonArrayOutput(source: ChunkSource<string>): Promise<Output> {
  const it = source()[Symbol.asyncIterator]();
  const first = await nextNonEmpty(it);
  if (!first) throw noRecords();
  async function* write() {
    try {
      yield `[${first!.join(',')}`;
      for (let chunk = await nextNonEmpty(it); chunk; chunk = await nextNonEmpty(it)) yield `,${chunk.join(',')}`;
      yield ']';
    } finally {
      await it.return?.();
    }
  }
  return { contentType: jsonContentType, body: Readable.from(write(), { objectMode: false }) };
}

/** The column names of one event shape, as `EventSearch.csvShapes` returns them (JSON text). */
export interface CsvShape {
  options: string;
  aux: string;
}

const strings = (list: unknown): string[] =>
  Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];

/** Shapes from the database → the names an event of that shape has columns for. */
function shapeNames(shape: CsvShape, ids: RecordIdFields): ColumnNames {
  const aux = parseJson<unknown[]>(shape.aux, []);
  return {
    options: strings(parseJson<unknown>(shape.options, [])),
    aux: (Array.isArray(aux) ? aux : []).map((a) => {
      const [source, names] = Array.isArray(a) ? (a as [unknown, unknown]) : [];
      return { source: String(source), names: strings(names) };
    }),
    ids,
  };
}

/**
 * Event CSV (reference §6.1), streamed. The header needs every column of every row. With
 * `shapes` (the distinct column shapes of the matching events, read by the database without
 * the rows) the rows are read once; without, the source is read once for the column names only
 * and once more for the rows.
 */
export async function eventCsvOutput(
  source: ChunkSource<EventItem>,
  known?: { shapes: CsvShape[]; ids: RecordIdFields } | null,
): Promise<Output> {
  if (known) return oneReadCsv(source, known.shapes, known.ids);
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
  async function* write() {
    yield eventCsvHeaderLine(header);
    for await (const chunk of source()) {
      if (chunk.length > 0)
        yield `\n${chunk.map((item) => eventCsvLine(header, flattenEventForCsv(csvEvent(item)))).join('\n')}`;
    }
  }
  return { contentType: csvContentType, body: Readable.from(write(), { objectMode: false }) };
}

/** `ids`: the record-id columns some row has (their values do not matter here). */
async function oneReadCsv(source: ChunkSource<EventItem>, shapes: CsvShape[], ids: RecordIdFields): Promise<Output> {
  const it = source()[Symbol.asyncIterator]();
  const first = await nextNonEmpty(it);
  if (!first) throw noRecords();
  const columns = new EventCsvColumns();
  for (const shape of shapes) {
    const names = shapeNames(shape, ids);
    const blank: EventItem = { row: first[0]!.row, ...(first[0]!.aux !== undefined ? { aux: [] } : {}), ids };
    columns.add(flattenEventForCsv(columnsEvent(blank, names)));
  }
  const header = columns.header();
  const line = (item: EventItem) => eventCsvLine(header, flattenEventForCsv(csvEvent(item)));
  async function* write() {
    try {
      yield `${eventCsvHeaderLine(header)}\n${first!.map(line).join('\n')}`;
      for (let chunk = await nextNonEmpty(it); chunk; chunk = await nextNonEmpty(it))
        yield `\n${chunk.map(line).join('\n')}`;
    } finally {
      await it.return?.();
    }
  }
  return { contentType: csvContentType, body: Readable.from(write(), { objectMode: false }) };
}
