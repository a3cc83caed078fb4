import { describe, expect, it } from 'vitest';
import { parseManagerConfig } from './aux-config.js';
import { buildDataArray } from './aux-lookup.js';

/** Sealog's lookup rules on one reading (docs/aux-managers.md#lookup-rules). */
const lookup = (yaml: string) =>
  parseManagerConfig(
    'influx',
    `data_source: x\nquery_measurements: [m]\nsource: {url: http://h:1, database: d}\n${yaml}`,
  ).lookup;

describe('lookup rules', () => {
  const rules = lookup(`aux_record_lookup:
  depth: {name: depth, uom: m, round: 1, modify: [{test: [{field: depth, gte: 1000}, {field: flag, eq: x}], operation: [{subtract: 10}, {divide: 2}]}]}
  alt: {name: altitude, modify: [{test: [{field: alt, lte: 5}], operation: [{add: 100}]}]}
  flag: {no_output: true}
  text: {name: text}
`);

  it('applies a modify when any test holds (gte/lte compare with their own values), then rounds', () => {
    expect(buildDataArray(rules, { depth: 1000, alt: 5, flag: 'y', text: 'ok' })).toEqual([
      { data_name: 'depth', data_value: '495', data_uom: 'm' },
      { data_name: 'altitude', data_value: '105', data_uom: '' },
      { data_name: 'text', data_value: 'ok', data_uom: '' },
    ]);
    expect(buildDataArray(rules, { depth: 999.96, alt: 6, flag: 'x', text: 'ok' })![0]).toEqual({
      data_name: 'depth',
      data_value: '495',
      data_uom: 'm',
    });
    expect(buildDataArray(rules, { depth: 12.34, alt: 6, flag: 'y' })![0]!.data_value).toBe('12.3');
  });

  it('drops the record when a test names a field the reading lacks, and gives none without values', () => {
    expect(buildDataArray(rules, { depth: 5, alt: 1 })).toBeNull();
    expect(buildDataArray(rules, {})).toBeNull();
    expect(buildDataArray(lookup('aux_record_lookup:\n  a: {name: a}\n'), { b: 1 })).toBeNull();
  });

  it('refuses rules that do not hold, naming the key', () => {
    expect(() => lookup('aux_record_lookup:\n  a: {uom: m}\n')).toThrow('aux_record_lookup.a.name: needs a name');
    expect(() => lookup('aux_record_lookup:\n  a: {name: a, modify: [{operation: [{divide: 0}]}]}\n')).toThrow(
      'aux_record_lookup.a.modify[0].operation[0].divide: must not be 0',
    );
    expect(() => lookup('aux_record_lookup:\n  a: {name: a}\nquery_filters: ["x = 1; DROP DATABASE d"]\n')).toThrow(
      'query_filters[0]: must be one condition',
    );
    expect(() => parseManagerConfig('telepathy', 'data_source: x')).toThrow('kind: unknown source kind "telepathy"');
  });
});
