import { describe, expect, it } from 'vitest';
import { createEventAuxDataSchema, createEventSchema } from '@bathylog/shared';
import { auxDataImportBody, eventImportBody } from './event-import';

describe('event and aux-data import bodies', () => {
  it('sends an exported event with its id, time and author, marked not live, without the export-only fields', () => {
    const record = {
      id: '64025492c476e18a7cfc4ed2',
      ts: '2023-03-03T17:00:00.000Z',
      event_author: 'mt',
      event_value: 'CRUISE',
      event_free_text: '',
      event_options: [{ event_option_name: 'status', event_option_value: 'Start of Cruise' }],
      aux_data: [{ data_source: 'nav', data_array: [] }],
      cruise_id: 'FKt230303',
    };
    const body = eventImportBody(record);
    expect(Object.keys(body).sort()).toEqual(
      ['event_author', 'event_free_text', 'event_options', 'event_value', 'id', 'publish', 'ts'].sort(),
    );
    // An imported event is history: it never reaches the live consoles, however recent.
    expect(body.publish).toBe(false);
    expect(createEventSchema.safeParse(body).success).toBe(true);
  });

  it('sends an aux-data record as exported', () => {
    const record = {
      id: '64354800e74bc3fbf0b5608a',
      event_id: '643547ffe74bc3fbf0b56089',
      data_source: 'vesselRealtimeNavData',
      data_array: [{ data_name: 'heading', data_value: '181.15', data_uom: 'deg' }],
    };
    expect(auxDataImportBody({ ...record, extra: 1 })).toEqual(record);
    expect(createEventAuxDataSchema.safeParse(auxDataImportBody(record)).success).toBe(true);
  });
});
