import { describe, expect, it } from 'vitest';
import { eventCsvHeader, eventsToCsv, flattenEventForCsv, type CsvEvent } from './event-csv.js';
import { mergeAuxDataArrays } from './schemas/event-aux-data.js';
import { normalizeOptionName, splitFilterTerms, splitNegatedTerms } from './schemas/events.js';

const base: CsvEvent = {
  id: '5981f167212b348aed7fa9f6',
  ts: '2017-06-14T19:11:00.000Z',
  event_value: 'CORAL',
  event_author: 'user',
  event_free_text: 'some more text',
  event_options: [{ event_option_name: 'status', event_option_value: 'alive' }],
};

/** A Sealog export's shape (docs/wire.md#event-csv): two aux sources, a repeated camera name, record ids. */
const exported: CsvEvent = {
  ...base,
  aux_data: [
    {
      data_source: 'vehicleRealtimeNavData',
      data_array: [
        { data_name: 'latitude', data_value: '41.342981', data_uom: 'ddeg' },
        { data_name: 'depth', data_value: '943.2', data_uom: 'meters' },
      ],
    },
    {
      data_source: 'framegrabber',
      data_array: [
        { data_name: 'camera_name', data_value: 'Camera 01' },
        { data_name: 'filename', data_value: './path/framegrab_001.png' },
        { data_name: 'camera_name', data_value: 'Camera 02' },
        { data_name: 'filename', data_value: './path/framegrab_002.png' },
      ],
    },
    { data_source: 'customgrabber', data_array: [{ data_name: 'customField01', data_value: '100' }] },
  ],
  cruise_id: 'AT37-14',
  lowering_id: '4928',
};

describe('event CSV', () => {
  it('orders the header as a Sealog export does: base, record ids moved up, options, then aux columns in code-unit order', () => {
    const header = eventsToCsv([exported]).split('\n')[0]!;
    expect(header).toBe(
      [
        'id',
        'cruise_id',
        'lowering_id',
        'ts',
        'event_value',
        'event_author',
        'event_free_text',
        'event_option.status',
        'customgrabber.customField01_uom',
        'customgrabber.customField01_value',
        'framegrabber.camera_name_2_uom',
        'framegrabber.camera_name_2_value',
        'framegrabber.camera_name_uom',
        'framegrabber.camera_name_value',
        'framegrabber.filename_2_uom',
        'framegrabber.filename_2_value',
        'framegrabber.filename_uom',
        'framegrabber.filename_value',
        'vehicleRealtimeNavData.depth_uom',
        'vehicleRealtimeNavData.depth_value',
        'vehicleRealtimeNavData.latitude_uom',
        'vehicleRealtimeNavData.latitude_value',
      ]
        .map((c) => `"${c}"`)
        .join(','),
    );
  });

  it('writes the row as a Sealog export does: quoted strings, empty units, values in header order', () => {
    const [, row] = eventsToCsv([exported]).split('\n');
    expect(row).toBe(
      '"5981f167212b348aed7fa9f6","AT37-14","4928","2017-06-14T19:11:00.000Z","CORAL","user","some more text","alive",' +
        ',"100",,"Camera 02",,"Camera 01",,"./path/framegrab_002.png",,"./path/framegrab_001.png","meters","943.2","ddeg","41.342981"',
    );
  });

  it('puts lowering_id at position 2 when only it is present', () => {
    expect(
      eventCsvHeader([
        'id',
        'ts',
        'event_value',
        'event_author',
        'event_free_text',
        'lowering_id',
        'event_option.a',
      ]).slice(0, 4),
    ).toEqual(['id', 'ts', 'lowering_id', 'event_value']);
  });

  it('suffixes repeated option names with _2, _3 and sorts option columns before aux columns', () => {
    const row = flattenEventForCsv({
      ...base,
      event_options: [
        { event_option_name: 'b', event_option_value: '1' },
        { event_option_name: 'b', event_option_value: '2' },
        { event_option_name: 'b', event_option_value: '3' },
      ],
      aux_data: [{ data_source: 'a', data_array: [{ data_name: 'x', data_value: 1 }] }],
    });
    expect([...row.keys()].slice(5)).toEqual([
      'event_option.b',
      'event_option.b_2',
      'event_option.b_3',
      'a.x_value',
      'a.x_uom',
    ]);
    expect(eventCsvHeader(row.keys()).slice(5)).toEqual([
      'event_option.b',
      'event_option.b_2',
      'event_option.b_3',
      'a.x_uom',
      'a.x_value',
    ]);
  });

  it('writes numbers and booleans bare, doubles quotes, leaves missing cells empty, joins rows without a trailing newline', () => {
    const csv = eventsToCsv([
      {
        ...base,
        event_free_text: 'say "hi"',
        event_options: [],
        aux_data: [
          {
            data_source: 's',
            data_array: [
              { data_name: 'depth', data_value: 12.5, data_uom: 'm' },
              { data_name: 'ok', data_value: true },
              { data_name: 'blank', data_value: '', data_uom: '' },
            ],
          },
        ],
      },
      { ...base, id: 'b'.repeat(24), event_options: [] },
    ]);
    const lines = csv.split('\n');
    expect(lines).toHaveLength(3);
    expect(csv.endsWith('\n')).toBe(false);
    expect(lines[0]).toBe(
      '"id","ts","event_value","event_author","event_free_text","s.blank_uom","s.blank_value","s.depth_uom","s.depth_value","s.ok_uom","s.ok_value"',
    );
    expect(lines[1]).toBe(
      '"5981f167212b348aed7fa9f6","2017-06-14T19:11:00.000Z","CORAL","user","say ""hi""","","","m",12.5,,true',
    );
    expect(lines[2]).toBe(`"${'b'.repeat(24)}","2017-06-14T19:11:00.000Z","CORAL","user","some more text",,,,,,`);
  });

  it('escapes every line break in text cells so each event stays on one line (Sealog escaped only the first)', () => {
    const csv = eventsToCsv([
      {
        ...base,
        event_free_text: 'say "hi"\nline2\r\nline3',
        event_options: [{ event_option_name: 'event_comment', event_option_value: 'a\nb' }],
      },
    ]);
    expect(csv.split('\n')).toHaveLength(2);
    expect(csv).toContain('"say ""hi""\\nline2\\nline3"');
    expect(csv).toContain('"a\\nb"');
  });
});

describe('event rules shared by client and server', () => {
  it('normalises option names: lower case, whitespace runs to _', () => {
    expect(normalizeOptionName('Fish Type  Big')).toBe('fish_type_big');
    expect(normalizeOptionName('Milestone')).toBe('milestone');
  });

  it('splits filter terms on commas and repeats, trims, drops blanks, and separates ! exclusions', () => {
    expect(splitFilterTerms(['FISH, CORAL', ' ', 'ASNAP,,'])).toEqual(['FISH', 'CORAL', 'ASNAP']);
    expect(splitNegatedTerms(['!ASNAP', 'fish', '!', '! x'])).toEqual({ include: ['fish'], exclude: ['ASNAP', 'x'] });
  });

  it('merges aux data by name with the new values winning, pairs kept in order, new names appended', () => {
    const stored = [
      { data_name: 'camera_name', data_value: 'A' },
      { data_name: 'filename', data_value: 'a.jpg' },
      { data_name: 'camera_name', data_value: 'B' },
      { data_name: 'filename', data_value: 'b.jpg' },
      { data_name: 'depth', data_value: 10, data_uom: 'm' },
    ];
    const merged = mergeAuxDataArrays(stored, [
      { data_name: 'filename', data_value: 'a2.jpg' },
      { data_name: 'filename', data_value: 'b2.jpg' },
      { data_name: 'heading', data_value: '90', data_uom: 'deg' },
      { data_name: 'filename', data_value: 'c.jpg' },
    ]);
    expect(merged).toEqual([
      { data_name: 'camera_name', data_value: 'A' },
      { data_name: 'filename', data_value: 'a2.jpg' },
      { data_name: 'camera_name', data_value: 'B' },
      { data_name: 'filename', data_value: 'b2.jpg' },
      { data_name: 'depth', data_value: 10, data_uom: 'm' },
      { data_name: 'heading', data_value: '90', data_uom: 'deg' },
      { data_name: 'filename', data_value: 'c.jpg' },
    ]);
  });
});
