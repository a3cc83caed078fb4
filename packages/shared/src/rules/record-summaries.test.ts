import { describe, expect, it } from 'vitest';
import { clientSettingsSchema } from '../schemas/client-settings.js';
import { formatDuration } from '../duration.js';
import { cruiseSummaryText, loweringSummaryText } from './record-summaries.js';

const milestones = clientSettingsSchema.parse({}).milestones;

describe('durations', () => {
  it('drops leading zero units, keeps inner zeros, rounds minutes, singularises', () => {
    expect(formatDuration(40 * 86_400_000)).toBe('40 days 0 hours 0 minutes');
    expect(formatDuration(2.5 * 3_600_000)).toBe('2 hours 30 minutes');
    expect(formatDuration(45_000)).toBe('1 minute');
    expect(formatDuration(0)).toBe('0 minutes');
    expect(formatDuration(86_400_000 + 3 * 3_600_000 + 7 * 60_000)).toBe('1 day 3 hours 7 minutes');
  });
});

describe('clipboard summaries', () => {
  it('writes the cruise summary with padded labels and the lowerings line', () => {
    const text = cruiseSummaryText(
      {
        cruise_id: 'FKt230303',
        cruise_location: 'Lost City',
        start_ts: '2023-03-03T00:00:00.000Z',
        stop_ts: '2023-04-11T23:59:59.000Z',
        cruise_additional_meta: {
          cruise_name: 'Lost Cities',
          cruise_pi: 'Dr. B',
          cruise_vessel: 'R/V F',
          cruise_departure_location: 'San Juan',
        },
      },
      { Cruise: 'Cruise', Lowerings: 'Lowerings' },
      ['S0491', 'S0492'],
    );
    expect(text).toBe(
      [
        'Cruise ID:       FKt230303',
        'Cruise Name:     Lost Cities',
        'Chief Scientist: Dr. B',
        'Vessel:   R/V F',
        'Location: Lost City',
        '',
        'Start of Cruise: 2023/03/03',
        'Departure Port:  San Juan',
        'End of Cruise:   2023/04/11',
        '',
        'Cruise Duration: 40 days 0 hours 0 minutes',
        '',
        'Lowerings: S0491, S0492',
      ].join('\n'),
    );
  });

  it('writes the lowering summary with milestones, phases, abort and stats', () => {
    const text = loweringSummaryText(
      {
        lowering_id: 'S1',
        lowering_location: '',
        start_ts: '2024-01-01T00:00:00.000Z',
        stop_ts: '2024-01-01T06:00:00.000Z',
        lowering_additional_meta: {
          milestones: { lowering_on_surface: '2024-01-01T05:00:00.000Z', lowering_aborted: '2024-01-01T04:30:00.000Z' },
          stats: { max_depth: 12, bounding_box: [] },
        },
      },
      { Lowering: 'Dive' },
      milestones,
    );
    expect(text).toBe(
      [
        'Dive ID: S1',
        '',
        'Location: ',
        '',
        'Start of Dive:     2024-01-01T00:00:00.000Z',
        'On Surface:        2024-01-01T05:00:00.000Z',
        'End of Dive:       2024-01-01T06:00:00.000Z',
        '',
        'Deck-to-Deck: 6 hours 0 minutes',
        'Recovery:     1 hour 0 minutes',
        '',
        'Aborted: 2024-01-01T04:30:00.000Z',
        '',
        'Max Depth:    12m',
      ].join('\n'),
    );
  });

  it('names the lowering after its ID when it has a lowering_name', () => {
    const text = loweringSummaryText(
      {
        lowering_id: 'S1',
        lowering_location: 'Kane FZ',
        start_ts: '2024-01-01T00:00:00.000Z',
        stop_ts: '2024-01-01T06:00:00.000Z',
        lowering_additional_meta: { lowering_name: 'Scarp survey', lowering_description: 'Dive' },
      },
      { Lowering: 'Dive' },
      milestones,
    );
    expect(text.split('\n').slice(0, 3)).toEqual(['Dive ID: S1', 'Dive Name: Scarp survey', 'Description: Dive']);
  });
});
