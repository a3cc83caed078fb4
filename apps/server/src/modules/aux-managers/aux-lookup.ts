import type { AuxDataItem } from '@bathylog/shared';
import type { Reading } from '../../aux-sources/source.js';
import type { LookupRule } from './aux-config.js';

type Value = Reading['values'][string];

/** Whether one `test` entry holds for the reading (Sealog: any entry of a `test` list is enough). */
function passes(test: Record<string, unknown>, actual: Value): boolean {
  if ('eq' in test && actual === test.eq) return true;
  if ('ne' in test && actual !== test.ne) return true;
  if (typeof actual !== 'number') return false;
  if (typeof test.gt === 'number' && actual > test.gt) return true;
  // Sealog's script compares gte/lte with the gt/lt values (a slip); these compare with their own.
  if (typeof test.gte === 'number' && actual >= test.gte) return true;
  if (typeof test.lt === 'number' && actual < test.lt) return true;
  if (typeof test.lte === 'number' && actual <= test.lte) return true;
  return false;
}

/** Python's round(x, n) as str() prints it, closely enough for sensor values (toFixed rounds the decimal). */
function rounded(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}

/**
 * The record's data_array from one reading, by Sealog's lookup rules (docs/aux-managers.md#lookup-rules): each
 * field in order; `no_output` fields are read (tests may use them) but not written; `modify` entries apply their
 * operations when any of their tests holds (or when they have none); `round` and `uom` shape the output. A test
 * on a field the reading lacks drops the whole record (null), as Sealog does; no field at all gives null too.
 */
export function buildDataArray(lookup: Record<string, LookupRule>, values: Reading['values']): AuxDataItem[] | null {
  const out: AuxDataItem[] = [];
  for (const [key, rule] of Object.entries(lookup)) {
    if (rule.no_output === true) continue;
    if (!(key in values) || values[key] === null || values[key] === undefined) continue;
    let value: Value = values[key];
    let skip = false;
    for (const mod of rule.modify ?? []) {
      let holds = true;
      if (mod.test) {
        holds = false;
        for (const test of mod.test) {
          if (!(test.field in values)) return null;
          if (passes(test, values[test.field] ?? null)) {
            holds = true;
            break;
          }
        }
      }
      if (!holds || !mod.operation) continue;
      if (typeof value !== 'number') {
        skip = true; // arithmetic on text: the field is left out, as Sealog leaves out a value it cannot convert
        break;
      }
      for (const op of mod.operation) {
        if (op.add !== undefined) value += op.add;
        if (op.subtract !== undefined) value -= op.subtract;
        if (op.multiply !== undefined) value *= op.multiply;
        if (op.divide !== undefined) value /= op.divide;
      }
    }
    if (skip) continue;
    const text = rule.round !== undefined && typeof value === 'number' ? rounded(value, rule.round) : String(value);
    out.push({ data_name: rule.name!, data_value: text, data_uom: rule.uom ?? '' });
  }
  return out.length > 0 ? out : null;
}
