import { describe, expect, it } from 'vitest';
import { forCreate } from './commands.js';

describe('bathylog import: the create body of an exported record', () => {
  it('posts an exported event without its export-only fields, marked not live however recent', () => {
    const exported = {
      id: '64025492c476e18a7cfc4ed2',
      ts: new Date().toISOString(),
      event_author: 'mt',
      event_value: 'CRUISE',
      event_options: [],
      event_free_text: '',
      aux_data: [{ data_source: 'nav', data_array: [] }],
      cruise_id: 'FKt230303',
      lowering_id: 'S0492',
    };
    const { aux_data: _aux, cruise_id: _cruise, lowering_id: _lowering, ...event } = exported;
    // An import is history: `publish: false` keeps even today's events off the live consoles.
    expect(forCreate('events', exported)).toEqual({ ...event, publish: false });
  });
});
