import { describe, expect, it } from 'vitest';
import { csvCell, csvDocument, csvHeader, escapeNewlines, neutraliseCsvFormula } from './csv.js';
import { cruisesToCsv, loweringsToCsv } from './record-csv.js';
import type { Cruise } from './schemas/cruises.js';
import type { Lowering } from './schemas/lowerings.js';

describe('csv cells', () => {
  it('quotes strings and doubles inner quotes, leaves numbers and booleans bare, empties missing values', () => {
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(12.5)).toBe('12.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });

  it('writes a quoted header and rows joined by \\n without a trailing newline', () => {
    expect(csvDocument(['a', 'b'], [{ a: 'x', b: 1 }, { a: 'y' }])).toBe('"a","b"\n"x",1\n"y",');
  });

  it('starts text a spreadsheet would run as a formula with a single quote, in cells and headers', () => {
    for (const text of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\r=1', '=', '-', '+-1', '--1', '-1e3x', '-.'])
      expect(neutraliseCsvFormula(text), JSON.stringify(text)).toBe(`'${text}`);
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvHeader(['id', '=src.n_value'])).toBe('"id","\'=src.n_value"');
    expect(csvDocument(['a'], [{ a: '@x' }])).toBe('"a"\n"\'@x"');
  });

  it('leaves numbers, negative ones included, and every other text exactly as it is', () => {
    for (const text of ['-12.5', '-1e3', '+3', '-0.5E-7', '-.5', '12', 'a=1', ' =1', "'=1", '', 'O2 - high'])
      expect(neutraliseCsvFormula(text), JSON.stringify(text)).toBe(text);
    expect(csvCell('-12.5')).toBe('"-12.5"');
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(-1e3)).toBe('-1000');
  });

  it('escapes every line break, not only the first', () => {
    expect(escapeNewlines('one\ntwo\r\nthree\rfour')).toBe('one\\ntwo\\nthree\\nfour');
  });
});

const cruise: Cruise = {
  id: '5981f167212b348aed7fa9f5',
  cruise_id: 'AT37-14',
  cruise_location: 'Jaco Scar, Costa Rica',
  start_ts: '2017-06-14T00:00:00.000Z',
  stop_ts: '2017-06-28T00:00:00.000Z',
  cruise_tags: ['engineering', 'coral'],
  cruise_hidden: false,
  cruise_additional_meta: {
    cruise_vessel: 'R/V Atlantis',
    cruise_pi: 'Bruce Strickrott',
    cruise_departure_location: 'Norfolk, VA',
    cruise_arrival_location: "St. George's, Bermuda",
    cruise_name: 'Some Cruise Name',
    cruise_description: 'line1\nline2\nline3',
    cruise_participants: ['A. B', 'C. D'],
    cruise_files: ['a.txt'],
  },
};

describe('cruise CSV', () => {
  it('neutralises formulas in record fields and meta keys', () => {
    const [header, line] = cruisesToCsv([
      { ...cruise, cruise_location: '=cmd()', cruise_additional_meta: { '@key': '-7', cruise_pi: '+x' } },
    ]).split('\n');
    expect(header).toContain(`"'@key"`);
    expect(line).toContain(`"'=cmd()"`);
    expect(line).toContain(`"-7"`);
    expect(line).toContain(`"'+x"`);
  });

  it('has the Sealog header: fixed columns, then the meta keys sorted', () => {
    const [header] = cruisesToCsv([cruise]).split('\n');
    expect(header).toBe(
      '"id","cruise_id","start_ts","stop_ts","cruise_location","cruise_tags","cruise_arrival_location","cruise_departure_location","cruise_description","cruise_name","cruise_participants","cruise_pi","cruise_vessel"',
    );
  });

  it('writes the real id, joined lists, every newline escaped, and no hidden/access/files columns', () => {
    const lines = cruisesToCsv([{ ...cruise, cruise_access_list: ['x'] }]).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      '"5981f167212b348aed7fa9f5","AT37-14","2017-06-14T00:00:00.000Z","2017-06-28T00:00:00.000Z","Jaco Scar, Costa Rica","engineering,coral","St. George\'s, Bermuda","Norfolk, VA","line1\\nline2\\nline3","Some Cruise Name","A. B,C. D","Bruce Strickrott","R/V Atlantis"',
    );
    expect(lines[0]).not.toMatch(/hidden|access|files/);
  });

  it('exports a cruise without a description (Sealog answered 500)', () => {
    const bare: Cruise = { ...cruise, cruise_additional_meta: { cruise_vessel: 'R/V X' } };
    expect(cruisesToCsv([bare, cruise]).split('\n')[1]).toBe(
      '"5981f167212b348aed7fa9f5","AT37-14","2017-06-14T00:00:00.000Z","2017-06-28T00:00:00.000Z","Jaco Scar, Costa Rica","engineering,coral",,,,,,,"R/V X"',
    );
  });
});

describe('lowering CSV', () => {
  it('matches a Sealog export row, with the real id', () => {
    const lowering: Lowering = {
      id: '6981f167212b348aed7fa9f5',
      lowering_id: 'L1',
      start_ts: '2017-06-16T00:00:00.000Z',
      stop_ts: '2017-06-17T00:00:00.000Z',
      lowering_location: '',
      lowering_tags: ['x', 'y'],
      lowering_hidden: true,
      lowering_additional_meta: {
        lowering_description: 'a\nb',
        milestones: { lowering_on_bottom: '2017-06-16T01:00:00Z', lowering_aborted: null },
        stats: { max_depth: 10, bounding_box: [1, 2, 3, 4] },
        lowering_files: ['report.pdf'],
      },
    };
    expect(loweringsToCsv([lowering])).toBe(
      '"id","lowering_id","start_ts","stop_ts","lowering_location","lowering_tags","lowering_description","milestones","stats"\n' +
        '"6981f167212b348aed7fa9f5","L1","2017-06-16T00:00:00.000Z","2017-06-17T00:00:00.000Z","","x,y","a\\nb","{""lowering_on_bottom"":""2017-06-16T01:00:00Z"",""lowering_aborted"":null}","{""max_depth"":10,""bounding_box"":[1,2,3,4]}"',
    );
  });
});
