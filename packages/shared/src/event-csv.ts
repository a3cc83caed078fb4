/**
 * Event CSV (docs/wire.md#event-csv), used by the server's events and event_exports routes and by
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
 * missing, rows joined by `\n`, no trailing newline. One deliberate fix (docs/wire.md#csv):
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

/** The names an event's CSV columns come from: option names and, per aux record, source and data names. */
export interface EventCsvNames {
  options: readonly string[];
  aux: ReadonlyArray<{ source: string; names: readonly string[] }>;
  cruiseId: boolean;
  loweringId: boolean;
}

/**
 * The column of each value an event sets, in order: the base columns, each option, each aux datum's
 * value and unit, then the record ids. A repeated name takes the first free `_2`, `_3` … (a later
 * value for a column already set replaces it, as in a Map).
 */
export function eventCsvColumnSequence(names: EventCsvNames): string[] {
  const keys: string[] = [...eventCsvBaseColumns];
  const set = new Set<string>(keys);
  const add = (key: string) => {
    keys.push(key);
    set.add(key);
  };
  for (const name of names.options) {
    const base = optionPrefix + name;
    let key = base;
    if (set.has(key)) for (let n = 2; set.has((key = `${base}_${n}`)); n++);
    add(key);
  }
  for (const aux of names.aux) {
    const source = `${aux.source}.`;
    for (const name of aux.names) {
      const base = source + name;
      let stem = base;
      if (set.has(`${stem}_value`)) for (let n = 2; set.has(`${(stem = `${base}_${n}`)}_value`); n++);
      add(`${stem}_value`);
      add(`${stem}_uom`);
    }
  }
  if (names.cruiseId) add('cruise_id');
  if (names.loweringId) add('lowering_id');
  return keys;
}

/** The values of an event in the order of its column sequence. */
function eventCsvValues(event: CsvEvent): unknown[] {
  const values: unknown[] = [
    event.id,
    event.ts,
    textCell(event.event_value),
    textCell(event.event_author),
    textCell(event.event_free_text),
  ];
  for (const option of event.event_options) values.push(textCell(option.event_option_value));
  for (const aux of event.aux_data ?? [])
    for (const datum of aux.data_array) values.push(textCell(datum.data_value), textCell(datum.data_uom));
  if (event.cruise_id !== undefined) values.push(event.cruise_id);
  if (event.lowering_id !== undefined) values.push(event.lowering_id);
  return values;
}

function eventCsvNames(event: CsvEvent): EventCsvNames {
  return {
    options: event.event_options.map((o) => o.event_option_name),
    aux: (event.aux_data ?? []).map((a) => ({ source: a.data_source, names: a.data_array.map((d) => d.data_name) })),
    cruiseId: event.cruise_id !== undefined,
    loweringId: event.lowering_id !== undefined,
  };
}

/** Flattens one event into its CSV row (column name → value). */
export function flattenEventForCsv(event: CsvEvent): EventCsvRow {
  const keys = eventCsvColumnSequence(eventCsvNames(event));
  const values = eventCsvValues(event);
  const row: EventCsvRow = new Map();
  for (let i = 0; i < keys.length; i++) row.set(keys[i]!, values[i]);
  return row;
}

/**
 * The header for a set of column names (docs/wire.md#event-csv, the header order): the five base
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

/** A CSV cell of a text column: line breaks written as `\n` (see `textCell`), then `csvCell`. */
function textCsvCell(value: unknown): string {
  return csvCell(textCell(value));
}

/**
 * Writes event CSV lines for a known header, fast: events with the same names (a shape) put their
 * values into the same cells, so the column of each value is worked out once per shape and each
 * line is its cells joined. Gives exactly `eventCsvLine(header, flattenEventForCsv(event))`.
 */
export class EventCsvWriter {
  private readonly index = new Map<string, number>();
  private readonly plans = new Map<string, Int32Array>();
  private readonly blank: string[];

  /** Where the record-id columns are (-1: absent) and how many columns lead with base and ids. */
  private readonly cruiseAt: number;
  private readonly loweringAt: number;
  private readonly leading: number;
  /** Blank cells of the columns after the leading ones. */
  private readonly rest: string[];

  constructor(header: readonly string[]) {
    header.forEach((column, i) => this.index.set(column, i));
    this.blank = header.map(() => '');
    this.cruiseAt = header.indexOf('cruise_id');
    this.loweringAt = header.indexOf('lowering_id');
    this.leading = eventCsvBaseColumns.length + (this.cruiseAt < 0 ? 0 : 1) + (this.loweringAt < 0 ? 0 : 1);
    this.rest = this.blank.slice(this.leading);
  }

  /** Where each value of a shape goes (-1: a column the header lacks). */
  private plan(
    options: readonly CsvEventOption[],
    aux: readonly unknown[],
    cruiseId: boolean,
    loweringId: boolean,
    auxFrom = 0,
  ): Int32Array {
    // Names with their lengths: no two shapes share a key.
    let key = `${cruiseId ? 'c' : ''}${loweringId ? 'l' : ''}`;
    for (const o of options) key += `|${String(o.event_option_name).length}:${o.event_option_name}`;
    for (let i = auxFrom; i < aux.length; i += 2) {
      key += `/${String(aux[i]).length}:${aux[i] as string}`;
      for (const d of aux[i + 1] as CsvAuxRecord['data_array']) key += `|${String(d.data_name).length}:${d.data_name}`;
    }
    let plan = this.plans.get(key);
    if (!plan) {
      const names: EventCsvNames = {
        options: options.map((o) => o.event_option_name),
        aux: [],
        cruiseId,
        loweringId,
      };
      for (let i = auxFrom; i < aux.length; i += 2)
        (names.aux as Array<EventCsvNames['aux'][number]>).push({
          source: aux[i] as string,
          names: (aux[i + 1] as CsvAuxRecord['data_array']).map((d) => d.data_name),
        });
      plan = Int32Array.from(eventCsvColumnSequence(names), (column) => this.index.get(column) ?? -1);
      if (this.plans.size < 10_000) this.plans.set(key, plan); // bounded: every event could have its own shape
    }
    return plan;
  }

  line(event: CsvEvent): string {
    const aux: unknown[] = [];
    for (const a of event.aux_data ?? []) aux.push(a.data_source, a.data_array);
    const cruise = event.cruise_id !== undefined;
    const lowering = event.lowering_id !== undefined;
    const plan = this.plan(event.event_options, aux, cruise, lowering);
    const cells = this.blank.slice();
    const head = [
      csvCell(event.id),
      csvCell(event.ts),
      textCsvCell(event.event_value),
      textCsvCell(event.event_author),
      textCsvCell(event.event_free_text),
    ];
    for (let v = 0; v < head.length; v++) if (plan[v]! >= 0) cells[plan[v]!] = head[v]!;
    let v = this.fill(cells, 0, plan, head.length, event.event_options, aux, 0);
    if (cruise && plan[v++]! >= 0) cells[plan[v - 1]!] = csvCell(event.cruise_id);
    if (lowering && plan[v++]! >= 0) cells[plan[v - 1]!] = csvCell(event.lowering_id);
    return cells.join(',');
  }

  /**
   * Puts the option and aux cells (values from `plan[v]` on) into `cells`, which hold the header's
   * columns from `shift` on; `aux` is `[source, data_array, …]` from `auxFrom`. Returns the next
   * value's number.
   */
  private fill(
    cells: string[],
    shift: number,
    plan: Int32Array,
    from: number,
    options: readonly CsvEventOption[],
    aux: readonly unknown[],
    auxFrom: number,
  ): number {
    // The values in column-sequence order (see eventCsvColumnSequence); a later one for a column wins.
    let v = from;
    for (const o of options) {
      const at = plan[v++]!;
      if (at >= shift) cells[at - shift] = textCsvCell(o.event_option_value);
    }
    for (let i = auxFrom + 1; i < aux.length; i += 2)
      for (const d of aux[i] as CsvAuxRecord['data_array']) {
        const value = plan[v++]!;
        if (value >= shift) cells[value - shift] = textCsvCell(d.data_value);
        const uom = plan[v++]!;
        if (uom >= shift) cells[uom - shift] = textCsvCell(d.data_uom);
      }
    return v;
  }

  /**
   * A line from cells made elsewhere (the export: by the database) for the base and record-id
   * columns, which lead every header (id; ts and the record ids in header order; then value,
   * author and free text, given as one text starting with a comma), and the event's options and
   * aux records (`aux`: `[source, data_array, source, …]` from `auxFrom`).
   */
  lineOfCells(
    base: { id: string; ts: string; valueAuthorFreeText: string; cruiseId?: string; loweringId?: string },
    options: readonly CsvEventOption[],
    aux: readonly unknown[],
    auxFrom = 0,
  ): string {
    const plan = this.plan(options, aux, false, false, auxFrom); // the record ids come last: not placed here
    const cells = this.rest.slice();
    this.fill(cells, this.leading, plan, eventCsvBaseColumns.length, options, aux, auxFrom);
    const cruise = this.cruiseAt < 0 ? '' : `,${base.cruiseId ?? ''}`;
    const lowering = this.loweringAt < 0 ? '' : `,${base.loweringId ?? ''}`;
    const ids =
      this.loweringAt === 2 && this.cruiseAt < 0 ? `,${base.ts}${lowering}` : `${cruise}${lowering},${base.ts}`;
    const rest = cells.length > 0 ? `,${cells.join(',')}` : '';
    return `${base.id}${ids}${base.valueAuthorFreeText}${rest}`;
  }
}

/** A whole CSV document for events held in memory (the client, single events). */
export function eventsToCsv(events: readonly CsvEvent[]): string {
  const rows = events.map(flattenEventForCsv);
  const columns = new EventCsvColumns();
  for (const row of rows) columns.add(row);
  const header = columns.header();
  return [eventCsvHeaderLine(header), ...rows.map((row) => eventCsvLine(header, row))].join('\n');
}
