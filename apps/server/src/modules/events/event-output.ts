import { Readable } from 'node:stream';
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
  type LogEvent,
} from '@bathylog/shared';
import { AppError } from '../../lib/app-error.js';
import { parseJson } from '../../lib/json.js';
import type { AuxRow } from '../event-aux-data/event-aux-data.repository.js';
import type { EventRow } from './event-search.js';

/**
 * Turning rows into what the routes answer: wire objects, JSON arrays and event CSV, written
 * chunk by chunk so a cruise of any size streams without being held in memory.
 */

export const jsonContentType = 'application/json; charset=utf-8';
/** Sealog answered CSV as text/html (reference §2.8); no client depends on it, so say what it is. */
export const csvContentType = 'text/csv; charset=utf-8';

export interface Output {
  contentType: string;
  body: string | Readable;
}

/** A source of chunks that can be read more than once (CSV reads it twice: columns, then rows). */
export type ChunkSource<T> = () => AsyncIterable<T[]>;

export interface RecordIdFields {
  cruise_id?: string;
  lowering_id?: string;
}

export function toWireEvent(row: EventRow, ids: RecordIdFields = {}): LogEvent {
  return {
    event_author: row.event_author,
    ts: toIso(row.ts),
    event_value: row.event_value,
    event_options: parseJson<EventOption[]>(row.event_options, []),
    event_free_text: row.event_free_text,
    id: row.id,
    ...ids,
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

/** An event with its aux data embedded (no aux ids), as event_exports answers (reference §5.8). */
export type ExportedEvent = Omit<LogEvent, 'cruise_id' | 'lowering_id'> & {
  aux_data: Array<Pick<EventAuxData, 'data_source' | 'data_array'>>;
} & RecordIdFields;

export function toExportedEvent(row: EventRow, aux: readonly AuxRow[], ids: RecordIdFields = {}): ExportedEvent {
  return {
    event_author: row.event_author,
    ts: toIso(row.ts),
    event_value: row.event_value,
    event_options: parseJson<EventOption[]>(row.event_options, []),
    event_free_text: row.event_free_text,
    aux_data: aux.map((a) => ({ data_source: a.data_source, data_array: parseJson<EventAuxData['data_array']>(a.data_array, []) })),
    id: row.id,
    ...ids,
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

/** A JSON array, streamed; 404 `No records found` when the source is empty (decided before any byte is sent). */
export async function jsonArrayOutput<T>(source: ChunkSource<T>): Promise<Output> {
  const it = source()[Symbol.asyncIterator]();
  const first = await nextNonEmpty(it);
  if (!first) throw noRecords();
  async function* write() {
    try {
      yield `[${first!.map((item) => JSON.stringify(item)).join(',')}`;
      for (let chunk = await nextNonEmpty(it); chunk; chunk = await nextNonEmpty(it)) {
        yield `,${chunk.map((item) => JSON.stringify(item)).join(',')}`;
      }
      yield ']';
    } finally {
      await it.return?.();
    }
  }
  return { contentType: jsonContentType, body: Readable.from(write(), { objectMode: false }) };
}

/**
 * Event CSV (reference §6.1), streamed. The header needs every column of every row, so the
 * source is read once for the columns (keeping only their names) and once more for the rows.
 */
export async function eventCsvOutput(source: ChunkSource<CsvEvent>): Promise<Output> {
  const columns = new EventCsvColumns();
  let rows = 0;
  for await (const chunk of source()) {
    for (const event of chunk) columns.add(flattenEventForCsv(event));
    rows += chunk.length;
  }
  if (rows === 0) throw noRecords();
  const header = columns.header();
  async function* write() {
    yield eventCsvHeaderLine(header);
    for await (const chunk of source()) {
      if (chunk.length > 0) yield `\n${chunk.map((event) => eventCsvLine(header, flattenEventForCsv(event))).join('\n')}`;
    }
  }
  return { contentType: csvContentType, body: Readable.from(write(), { objectMode: false }) };
}

/** A source over rows already in memory (a page, one event). */
export function memorySource<T>(items: readonly T[]): ChunkSource<T> {
  return async function* () {
    if (items.length > 0) yield [...items];
  };
}
