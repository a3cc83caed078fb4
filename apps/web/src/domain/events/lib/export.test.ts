import { describe, expect, it } from 'vitest';
import {
  exportFileName,
  exportItems,
  exportPath,
  exportPrefixFromTs,
  exportQuery,
  exportUnavailableReason,
} from './export';

describe('export menu', () => {
  it('names files with the prefix and the Sealog endings', () => {
    const names = exportItems.map((item) => exportFileName('20230314_2215', item));
    expect(names).toEqual([
      '20230314_2215_sealog_export.json',
      '20230314_2215_sealog_eventExport.json',
      '20230314_2215_sealog_auxDataExport.json',
      '20230314_2215_sealog_export.csv',
      '20230314_2215_sealog_eventExport.csv',
    ]);
  });

  it('makes the prefix from the first event time in UTC', () => {
    expect(exportPrefixFromTs('2023-03-14T22:15:39.479Z')).toBe('20230314_2215');
  });

  it('reads the streaming export routes, scoped or not', () => {
    expect(exportPath({ kind: 'eventsWithAux' })).toBe('event_exports');
    expect(exportPath({ kind: 'eventsOnly' }, { kind: 'lowering', id: 'abc' })).toBe('events/bylowering/abc');
    expect(exportPath({ kind: 'auxOnly' }, { kind: 'cruise', id: 'abc' })).toBe('event_aux_data/bycruise/abc');
  });

  it('sends the filter, the format and record ids; aux data gets neither format nor full text', () => {
    const filter = {
      fulltext: ['coral'],
      author: ['jo'],
      value: ['!ASNAP'],
      startTS: '2023-01-01T00:00:00.000Z',
      sort: 'newest' as const,
      limit: 15,
    };
    expect(exportQuery({ kind: 'eventsOnly', format: 'json' }, filter)).toEqual({
      fulltext: ['coral'],
      author: ['jo'],
      value: ['!ASNAP'],
      datasource: undefined,
      startTS: '2023-01-01T00:00:00.000Z',
      stopTS: undefined,
      format: 'json',
      add_record_ids: true,
    });
    expect(exportQuery({ kind: 'eventsWithAux', format: 'csv' }, filter)).toMatchObject({
      format: 'csv',
      add_record_ids: undefined,
    });
    expect(exportQuery({ kind: 'auxOnly', format: 'json' }, filter)).toEqual({
      author: ['jo'],
      value: ['!ASNAP'],
      datasource: undefined,
      startTS: '2023-01-01T00:00:00.000Z',
      stopTS: undefined,
    });
    expect(exportUnavailableReason({ kind: 'auxOnly' }, filter)).toMatch(/full text/);
    expect(exportUnavailableReason({ kind: 'auxOnly' }, { author: ['jo'] })).toBeNull();
  });
});
