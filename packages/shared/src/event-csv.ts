/**
 * Event CSV (reference §6.1, §6.2), used by the server's events and event_exports routes and by
 * the client. Each event becomes one flat row; the header is built from every column any row has,
 * so a streaming writer first collects the columns (`EventCsvColumns`) and then writes the rows.
 *
 * Row rules:
 * - `id`, `ts` (ISO), `event_value`, `event_author`, `event_free_text`;
 * - each option → `event_option.<name>`; a repeated name → `<name>_2`, `_3` …;
 * - each aux datum → `<source>.<name>_value` and `<source>.<name>_uom` (the unit column exists even
 *   when the datum has none); a repeated source+name → `<source>.<name>_2_value` / `_2_uom` …;
 * - `cruise_id`, `lowering_id` when the caller asked for record ids.
 * Cells follow Sealog's json2csv output: quoted strings with `""`, bare numbers, empty when
 * missing, rows joined by `\n`, no trailing newline. One deliberate fix (reference §12 item 10):
 * every line break inside a text cell is written as the two characters `\n`, not only the first,
 * so each event stays on one line (as the cruise and lowering CSV do).
 */

import { compareCodeUnits, csvCell, csvHeader, escapeNewlines } from './csv.js';

export interface CsvEventOption {
  event_option_name: string;
  event_option_value: string;
}

export interface CsvAuxRecord {
  data_source: string;
  data_array: ReadonlyArray<{
    data_name: string;
    data_value: string | number | boolean;
    data_uom?: string | undefined;
  }>;
}

/** An event in its wire shape (ISO `ts`), optionally with aux data and record ids. */
export interface CsvEvent {
  id: string;
  ts: string;
  event_value: string;
  event_author: string;
  event_free_text: string;
  event_options: readonly CsvEventOption[];
  aux_data?: readonly CsvAuxRecord[] | undefined;
  cruise_id?: string | undefined;
  lowering_id?: string | undefined;
}

export type EventCsvRow = Map<string, unknown>;

/** The columns every event CSV starts with, in this order. */
export const eventCsvBaseColumns = ['id', 'ts', 'event_value', 'event_author', 'event_free_text'] as const;

const optionPrefix = 'event_option.';

function textCell(value: unknown): unknown {
  return typeof value === 'string' && (value.includes('\n') || value.includes('\r')) ? escapeNewlines(value) : value;
}

/** Flattens one event into its CSV row (column name → value). */
export function flattenEventForCsv(event: CsvEvent): EventCsvRow {
  const row: EventCsvRow = new Map();
  row.set('id', event.id);
  row.set('ts', event.ts);
  row.set('event_value', textCell(event.event_value));
  row.set('event_author', textCell(event.event_author));
  row.set('event_free_text', textCell(event.event_free_text));
  for (const option of event.event_options) {
    const base = optionPrefix + option.event_option_name;
    let key = base;
    if (row.has(key)) for (let n = 2; row.has((key = `${base}_${n}`)); n++);
    row.set(key, textCell(option.event_option_value));
  }
  for (const aux of event.aux_data ?? []) {
    const source = `${aux.data_source}.`;
    for (const datum of aux.data_array) {
      const base = source + datum.data_name;
      let stem = base;
      if (row.has(`${stem}_value`)) for (let n = 2; row.has(`${(stem = `${base}_${n}`)}_value`); n++);
      row.set(`${stem}_value`, textCell(datum.data_value));
      row.set(`${stem}_uom`, textCell(datum.data_uom));
    }
  }
  if (event.cruise_id !== undefined) row.set('cruise_id', event.cruise_id);
  if (event.lowering_id !== undefined) row.set('lowering_id', event.lowering_id);
  return row;
}

/**
 * The header for a set of column names (reference §6.1 "Header construction"): the five base
 * columns, then the option columns in code-unit order, then all others in code-unit order; then
 * `cruise_id` moves to position 1 and `lowering_id` to position 2 when present.
 */
export function eventCsvHeader(columns: Iterable<string>): string[] {
  const base = new Set<string>(eventCsvBaseColumns);
  const options: string[] = [];
  const others: string[] = [];
  for (const column of new Set(columns)) {
    if (base.has(column)) continue;
    (column.startsWith(optionPrefix) ? options : others).push(column);
  }
  const header = [...eventCsvBaseColumns, ...options.sort(compareCodeUnits), ...others.sort(compareCodeUnits)];
  for (const [column, position] of [
    ['cruise_id', 1],
    ['lowering_id', 2],
  ] as const) {
    const at = header.indexOf(column);
    if (at === -1) continue;
    header.splice(at, 1);
    header.splice(position, 0, column);
  }
  return header;
}

/** Collects the columns of rows one at a time, so a writer can stream rows after a first pass. */
export class EventCsvColumns {
  private readonly seen = new Set<string>();

  add(row: EventCsvRow): void {
    for (const key of row.keys()) this.seen.add(key);
  }

  header(): string[] {
    return eventCsvHeader(this.seen);
  }
}

export function eventCsvHeaderLine(header: readonly string[]): string {
  return csvHeader(header);
}

export function eventCsvLine(header: readonly string[], row: EventCsvRow): string {
  return header.map((column) => csvCell(row.get(column))).join(',');
}

/** A whole CSV document for events held in memory (the client, single events). */
export function eventsToCsv(events: readonly CsvEvent[]): string {
  const rows = events.map(flattenEventForCsv);
  const columns = new EventCsvColumns();
  for (const row of rows) columns.add(row);
  const header = columns.header();
  return [eventCsvHeaderLine(header), ...rows.map((row) => eventCsvLine(header, row))].join('\n');
}
