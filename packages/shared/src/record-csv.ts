import { compareCodeUnits, csvDocument, escapeNewlines } from './csv.js';
import type { Cruise } from './schemas/cruises.js';
import type { Lowering } from './schemas/lowerings.js';

/**
 * Cruise and lowering CSV (docs/wire.md#cruise-and-lowering-csv), with Sealog's defects fixed:
 * the `id` column holds the real id, every line break is escaped (not only the first), and a
 * record without a description exports with an empty cell instead of failing.
 *
 * Each record becomes one row: the fixed columns, then every key of the additional meta lifted to
 * the top level (arrays joined with `,`, objects as JSON). Hidden flag, access list and file list
 * are left out. The header is the fixed columns, then all other keys in code-unit order.
 */
type Kind = 'cruise' | 'lowering';

function fixedColumns(kind: Kind): string[] {
  return ['id', `${kind}_id`, 'start_ts', 'stop_ts', `${kind}_location`, `${kind}_tags`];
}

function joinList(list: readonly unknown[]): string {
  return list
    .map((item) =>
      item === null || item === undefined ? '' : typeof item === 'object' ? JSON.stringify(item) : String(item),
    )
    .join(',');
}

function cellValue(value: unknown): unknown {
  if (Array.isArray(value)) return escapeNewlines(joinList(value));
  if (typeof value === 'string') return escapeNewlines(value);
  return value;
}

function flatten(record: Record<string, unknown>, kind: Kind): Record<string, unknown> {
  const fixed = fixedColumns(kind);
  const row: Record<string, unknown> = {};
  for (const column of fixed) row[column] = cellValue(record[column]);
  const meta = record[`${kind}_additional_meta`];
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) {
    for (const [key, value] of Object.entries(meta as Record<string, unknown>)) {
      // A meta key named like a fixed column must not overwrite it.
      if (key === `${kind}_files` || fixed.includes(key)) continue;
      row[key] = cellValue(value);
    }
  }
  return row;
}

function recordsCsv(records: ReadonlyArray<Record<string, unknown>>, kind: Kind): string {
  const fixed = fixedColumns(kind);
  const rows = records.map((r) => flatten(r, kind));
  const extra = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) if (!fixed.includes(key)) extra.add(key);
  return csvDocument([...fixed, ...[...extra].sort(compareCodeUnits)], rows);
}

/** CSV of cruises as the API answers them (wire shape, ISO times). */
export function cruisesToCsv(cruises: readonly Cruise[]): string {
  return recordsCsv(cruises as unknown as ReadonlyArray<Record<string, unknown>>, 'cruise');
}

/** CSV of lowerings as the API answers them (wire shape, ISO times). */
export function loweringsToCsv(lowerings: readonly Lowering[]): string {
  return recordsCsv(lowerings as unknown as ReadonlyArray<Record<string, unknown>>, 'lowering');
}
