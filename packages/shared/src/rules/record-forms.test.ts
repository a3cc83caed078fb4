import { describe, expect, it } from 'vitest';
import {
  cruiseCreateBody,
  cruiseFormSchema,
  cruiseFormSchemaFor,
  cruiseUpdateBody,
  emptyCruiseForm,
  emptyLoweringForm,
  formatFormDateTime,
  isNonStandardId,
  loweringCreateBody,
  loweringFormSchema,
  loweringToForm,
  loweringUpdateBody,
  matchesCruiseSearch,
  matchesLoweringSearch,
  splitList,
  type CruiseFormValues,
  type LoweringFormValues,
} from './record-forms.js';
import type { Cruise } from '../schemas/cruises.js';
import type { Lowering } from '../schemas/lowerings.js';

function messages(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[String(issue.path[0])] ??= issue.message;
  return out;
}

const lowering: Lowering = {
  id: '6400d0e5c476e18a7cf00001',
  lowering_id: 'S0492',
  start_ts: '2023-03-14T22:15:39.479Z',
  stop_ts: '2023-03-15T08:32:32.654Z',
  lowering_location: 'Kane FZ',
  lowering_tags: ['vents'],
  lowering_hidden: false,
  lowering_additional_meta: {
    lowering_description: 'Dive',
    milestones: { lowering_on_bottom: '2023-03-15T00:00:00.000Z' },
    stats: { max_depth: 2011.54, bounding_box: [1, 2, 3, 4] },
    lowering_files: ['notes.pdf'],
  },
};

const cruise: Cruise = {
  id: '6400d0e5c476e18a7cf00002',
  cruise_id: 'FKt230303',
  start_ts: '2023-03-03T00:00:00.000Z',
  stop_ts: '2023-04-11T23:59:59.000Z',
  cruise_location: 'Lost City',
  cruise_tags: [],
  cruise_hidden: false,
  cruise_additional_meta: {
    cruise_name: 'Lost Cities',
    cruise_vessel: 'R/V Falkor (too)',
    cruise_pi: 'Dr. Butterfield',
    cruise_departure_location: 'San Juan, PR',
    cruise_arrival_location: 'San Juan, PR',
    cruise_participants: ['Ann', 'Bob'],
    cruise_files: ['plan.pdf'],
    extra_key: 'kept',
  },
};

describe('lowering form', () => {
  const valid: LoweringFormValues = {
    lowering_id: 'S0001',
    lowering_name: '',
    lowering_location: '',
    lowering_description: '',
    start_ts: '2024-01-01 10:00',
    stop_ts: '2024-01-01 12:00',
    lowering_tags: '',
  };

  it('accepts a valid form', () => {
    expect(loweringFormSchema.safeParse(valid).success).toBe(true);
  });

  it('gives each message of the Sealog form', () => {
    expect(messages(loweringFormSchema.safeParse({ ...valid, lowering_id: '', start_ts: '', stop_ts: '' }))).toEqual({
      lowering_id: 'Required',
      start_ts: 'Required',
      stop_ts: 'Required',
    });
    expect(messages(loweringFormSchema.safeParse({ ...valid, lowering_id: 'X'.repeat(16) }))).toEqual({
      lowering_id: 'Must be 15 characters or less',
    });
    expect(loweringFormSchema.safeParse({ ...valid, lowering_id: 'X'.repeat(15) }).success).toBe(true);
    expect(
      messages(loweringFormSchema.safeParse({ ...valid, start_ts: 'yesterday', stop_ts: '2024-02-30 10:00' })),
    ).toEqual({ start_ts: 'Invalid timestamp', stop_ts: 'Invalid timestamp' });
    expect(messages(loweringFormSchema.safeParse({ ...valid, stop_ts: '2024-01-01 10:00' }))).toEqual({
      stop_ts: 'Stop date must be later than start data',
    });
  });

  it('takes a date alone as the start of its day, and the end of it for the stop', () => {
    const sameDay = { ...valid, start_ts: '2024-01-01', stop_ts: '2024-01-01' };
    expect(loweringFormSchema.safeParse(sameDay).success).toBe(true);
    expect(loweringCreateBody(sameDay)).toMatchObject({
      start_ts: '2024-01-01T00:00:00.000Z',
      stop_ts: '2024-01-01T23:59:59.999Z',
    });
    expect(loweringCreateBody({ ...valid, start_ts: '2024-01-01T10:00:00.250Z' }).start_ts).toBe(
      '2024-01-01T10:00:00.250Z',
    );
  });

  it('defaults a new lowering to now (seconds zeroed) and one day later', () => {
    const form = emptyLoweringForm(Date.UTC(2024, 4, 6, 7, 8, 9, 10));
    expect(form.start_ts).toBe('2024-05-06 07:08');
    expect(form.stop_ts).toBe('2024-05-07 07:08');
  });

  it('round-trips stored times exactly', () => {
    expect(formatFormDateTime('2023-03-14T22:15:39.479Z')).toBe('2023-03-14 22:15:39.479');
    expect(formatFormDateTime('2023-03-14T22:15:00.000Z')).toBe('2023-03-14 22:15');
    const body = loweringUpdateBody(loweringToForm(lowering), lowering, { isAdmin: true });
    expect(body.start_ts).toBe(lowering.start_ts);
    expect(body.stop_ts).toBe(lowering.stop_ts);
  });

  it('builds create and update bodies: lists trimmed, meta kept, files only as new uploads', () => {
    expect(loweringCreateBody({ ...valid, lowering_tags: ' a, ,b ' })).toMatchObject({
      lowering_id: 'S0001',
      start_ts: '2024-01-01T10:00:00.000Z',
      lowering_tags: ['a', 'b'],
      lowering_hidden: false,
      lowering_additional_meta: { lowering_description: '' },
    });
    const update = loweringUpdateBody(loweringToForm(lowering), lowering, { isAdmin: true, uploads: ['up1'] });
    expect(update.lowering_additional_meta).toEqual({
      lowering_description: 'Dive',
      milestones: { lowering_on_bottom: '2023-03-15T00:00:00.000Z' },
      stats: { max_depth: 2011.54, bounding_box: [1, 2, 3, 4] },
      lowering_files: ['up1'],
    });
    const byManager = loweringUpdateBody(loweringToForm(lowering), lowering, { isAdmin: false });
    expect(byManager.lowering_additional_meta).not.toHaveProperty('lowering_name');
    expect(byManager).not.toHaveProperty('lowering_id');
    expect(byManager).not.toHaveProperty('start_ts');
    expect(byManager.lowering_additional_meta).not.toHaveProperty('lowering_files');
  });

  it('edits lowering_name in the meta: shown, sent trimmed, cleared, never added empty', () => {
    expect(loweringCreateBody({ ...valid, lowering_name: ' Kane survey ' }).lowering_additional_meta).toEqual({
      lowering_name: 'Kane survey',
      lowering_description: '',
    });
    const named: Lowering = {
      ...lowering,
      lowering_additional_meta: { ...lowering.lowering_additional_meta, lowering_name: 'Kane survey' },
    };
    expect(loweringToForm(named).lowering_name).toBe('Kane survey');
    const renamed = loweringUpdateBody({ ...loweringToForm(named), lowering_name: 'Kane FZ' }, named, {
      isAdmin: false,
    });
    expect(renamed.lowering_additional_meta?.lowering_name).toBe('Kane FZ');
    const cleared = loweringUpdateBody({ ...loweringToForm(named), lowering_name: ' ' }, named, { isAdmin: true });
    expect(cleared.lowering_additional_meta?.lowering_name).toBe('');
  });

  it('searches the ID and location case-insensitively, tags exactly', () => {
    expect(matchesLoweringSearch(lowering, 's04')).toBe(true);
    expect(matchesLoweringSearch(lowering, 'kane')).toBe(true);
    expect(matchesLoweringSearch(lowering, 'vents')).toBe(true);
    expect(matchesLoweringSearch(lowering, 'vent')).toBe(false);
    expect(matchesLoweringSearch(lowering, '')).toBe(true);
  });
});

describe('cruise form', () => {
  const valid: CruiseFormValues = {
    ...emptyCruiseForm('R/V Discovery', Date.UTC(2024, 0, 5, 13)),
    cruise_id: 'CS2001',
    cruise_pi: 'Dr. Lang',
    stop_ts: '2024-01-05',
    cruise_departure_location: 'Norfolk, VA',
    cruise_arrival_location: "St. George's",
  };

  it('defaults to today and the configured vessel', () => {
    expect(emptyCruiseForm('R/V Discovery', Date.UTC(2024, 0, 5, 13))).toMatchObject({
      start_ts: '2024-01-05',
      stop_ts: '',
      cruise_vessel: 'R/V Discovery',
    });
  });

  it('requires the Sealog form fields and orders the dates, a one-day cruise allowed', () => {
    expect(cruiseFormSchema.safeParse(valid).success).toBe(true);
    expect(
      messages(
        cruiseFormSchema.safeParse({
          ...valid,
          cruise_vessel: ' ',
          cruise_pi: '',
          cruise_departure_location: '',
          cruise_arrival_location: '',
        }),
      ),
    ).toEqual({
      cruise_vessel: 'Required',
      cruise_pi: 'Required',
      cruise_departure_location: 'Required',
      cruise_arrival_location: 'Required',
    });
    expect(messages(cruiseFormSchema.safeParse({ ...valid, stop_ts: '2024-01-04' }))).toEqual({
      stop_ts: 'Stop date must be later than start data',
    });
    expect(cruiseFormSchema.safeParse({ ...valid, start_ts: '2024-01-05 10:00' }).success).toBe(true);
    expect(messages(cruiseFormSchema.safeParse({ ...valid, start_ts: '05/01/2024' }))).toEqual({
      start_ts: 'Invalid timestamp',
    });
    // A cruise manager's locked fields are neither sent nor checked.
    expect(cruiseFormSchemaFor({ locked: true }).safeParse({ ...valid, cruise_arrival_location: '' }).success).toBe(
      true,
    );
  });

  it('forces the stop to 23:59:59 and keeps meta keys the form does not show', () => {
    expect(cruiseCreateBody({ ...valid, cruise_participants: 'Ann, Bob,' })).toMatchObject({
      start_ts: '2024-01-05T00:00:00.000Z',
      stop_ts: '2024-01-05T23:59:59.000Z',
      cruise_additional_meta: { cruise_participants: ['Ann', 'Bob'] },
    });
    const form = { ...valid, cruise_id: 'FKt230303', start_ts: '2023-03-03', stop_ts: '2023-04-11' };
    const update = cruiseUpdateBody(form, cruise, { isAdmin: true });
    expect(update.cruise_additional_meta).toMatchObject({ extra_key: 'kept' });
    expect(update.cruise_additional_meta).not.toHaveProperty('cruise_files');
    const manager = cruiseUpdateBody(form, cruise, { isAdmin: false, uploads: ['u1'] });
    expect(manager).not.toHaveProperty('cruise_id');
    expect(manager).not.toHaveProperty('stop_ts');
    expect(manager.cruise_additional_meta).not.toHaveProperty('cruise_vessel');
    expect(manager.cruise_additional_meta).toMatchObject({ cruise_files: ['u1'] });
  });

  it('searches ID, location, vessel, PI, ports and participants; tags exactly', () => {
    for (const text of ['fkt23', 'lost', 'falkor', 'butterfield', 'san juan', 'ann']) {
      expect(matchesCruiseSearch(cruise, text), text).toBe(true);
    }
    expect(matchesCruiseSearch({ ...cruise, cruise_tags: ['Vents'] }, 'Vents')).toBe(true);
    expect(matchesCruiseSearch(cruise, 'atlantis')).toBe(false);
  });
});

describe('shared helpers', () => {
  it('splits comma lists', () => {
    expect(splitList(' a, b ,,c ')).toEqual(['a', 'b', 'c']);
  });

  it('warns about IDs that miss the configured pattern only', () => {
    expect(isNonStandardId('S0001', '^S\\d{4}$')).toBe(false);
    expect(isNonStandardId('DIVE-1', '^S\\d{4}$')).toBe(true);
    expect(isNonStandardId('anything', null)).toBe(false);
    expect(isNonStandardId('anything', '([')).toBe(false);
  });
});
