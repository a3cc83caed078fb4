/**
 * Generic CSV writing with the cell rules of Sealog's exports (docs/wire.md#csv), so existing
 * spreadsheets and scripts read our files unchanged:
 * - header cells are always double-quoted;
 * - strings are always quoted, inner `"` doubled; text a spreadsheet would run as a formula starts
 *   with a single quote (`neutraliseCsvFormula`), in header cells too;
 * - numbers and booleans are bare; missing values (undefined, null) are empty;
 * - objects and arrays are written as quoted JSON;
 * - rows are joined by `\n`, with no trailing newline.
 * Record-specific flattening (events, cruises, lowerings) lives next to each record type.
 */

/** The content type we answer CSV with (Sealog sent text/html; a CSV type is what it is). */
export const csvContentType = 'text/csv; charset=utf-8';

/**
 * The characters that make a spreadsheet read a cell as a formula when they start it (`=`, `+`,
 * `-`, `@`, tab, carriage return): a cell such as `=HYPERLINK(...)` logged by anyone would run in
 * whoever opens the export. Writers that build cells elsewhere (the database's fast path of event
 * exports) send text starting with one of these through `csvCell` instead.
 */
export const csvFormulaStarts = ['=', '+', '-', '@', '\t', '\r'] as const;

const plainNumber = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Text as a CSV cell may hold it without a spreadsheet running it: text starting with one of
 * `csvFormulaStarts` gets a leading single quote, which spreadsheets show as text (the OWASP
 * advice for CSV injection). Numbers written as text (`-12.5`, `-1e3`, `+3`) stay as they are.
 */
export function neutraliseCsvFormula(text: string): string {
  if (text === '' || !(csvFormulaStarts as readonly string[]).includes(text[0]!)) return text;
  return plainNumber.test(text) ? text : `'${text}`;
}

function quote(text: string): string {
  return `"${neutraliseCsvFormula(text).replace(/"/g, '""')}"`;
}

/** One cell. */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return quote(value.toISOString());
  return quote(JSON.stringify(value));
}

/** One row of cells, comma separated (no line break). */
export function csvRow(cells: readonly unknown[]): string {
  return cells.map(csvCell).join(',');
}

/** The header row: every column name quoted. */
export function csvHeader(columns: readonly string[]): string {
  return columns.map(quote).join(',');
}

/** A whole document: the header, then one row per object in column order; no trailing newline. */
export function csvDocument(columns: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): string {
  const lines = [csvHeader(columns)];
  for (const row of rows) lines.push(csvRow(columns.map((c) => row[c])));
  return lines.join('\n');
}

/**
 * Every line break (CRLF, CR or LF) becomes the two characters `\n`, so each record stays on one
 * line. Sealog escaped only the first one, which broke line-by-line readers.
 */
export function escapeNewlines(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\\n');
}

/** Plain code-unit order, as Sealog sorts extra CSV columns (not locale order). */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
