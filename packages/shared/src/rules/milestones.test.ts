import { describe, expect, it } from 'vitest';
import { clientSettingsSchema } from '../schemas/client-settings.js';
import {
  errorsAfterMove,
  milestoneFields,
  milestoneMessages,
  milestonesUpdateBody,
  milestoneValuesOf,
  phaseDurations,
  statsOf,
  statsValuesOf,
  validateMilestonesForm,
  type StatsValues,
} from './milestones.js';

const settings = clientSettingsSchema.parse({}).milestones;

/** The demo dive S0492 as the demo data holds it. */
const s0492 = {
  start_ts: '2023-03-14T22:15:39.479Z',
  stop_ts: '2023-03-15T08:32:32.654Z',
  lowering_additional_meta: {
    lowering_description: 'Launch target',
    lowering_files: ['FKt230303_S0492_Summary_Report.pdf'],
    milestones: {
      lowering_descending: '2023-03-14T22:29:58.755Z',
      lowering_on_bottom: '2023-03-14T23:45:16.031Z',
      lowering_off_bottom: '2023-03-15T01:39:44.340Z',
      lowering_on_surface: '2023-03-15T08:11:12.549Z',
      lowering_aborted: null,
    },
    stats: { max_depth: 2011.54, bounding_box: [23.551409, -45.133938, 23.547893, -45.150482] },
  },
};

const noStats: StatsValues = { maxDepth: '', north: '', east: '', south: '', west: '' };

function errorsFor(changes: Record<string, string>, stats: Partial<StatsValues> = {}) {
  return validateMilestonesForm(
    { ...milestoneValuesOf(s0492, settings), ...changes },
    { ...noStats, ...stats },
    settings,
  );
}

describe('milestone list', () => {
  it('orders Off Deck, the four milestones, On Deck, then Aborted', () => {
    expect(milestoneFields(settings).map((f) => [f.key, f.label])).toEqual([
      ['start_ts', 'Off Deck'],
      ['lowering_descending', 'Descending'],
      ['lowering_on_bottom', 'On Bottom'],
      ['lowering_off_bottom', 'Off Bottom'],
      ['lowering_on_surface', 'On Surface'],
      ['stop_ts', 'On Deck'],
      ['lowering_aborted', 'Aborted'],
    ]);
  });

  it('follows a vessel configuration', () => {
    const custom = clientSettingsSchema.parse({
      milestones: { list: [{ name: 'in_water', label: 'In Water' }], abort: { label: 'Aborted' } },
    }).milestones;
    expect(milestoneFields(custom).map((f) => f.key)).toEqual(['start_ts', 'in_water', 'stop_ts']);
  });

  it('reads the editor values from the lowering, unset ones empty', () => {
    expect(milestoneValuesOf(s0492, settings)).toMatchObject({
      start_ts: s0492.start_ts,
      stop_ts: s0492.stop_ts,
      lowering_on_bottom: '2023-03-14T23:45:16.031Z',
      lowering_aborted: '',
    });
  });
});

describe('phase durations', () => {
  it('gives the six phases of S0492', () => {
    const min = 60_000;
    const d = Object.fromEntries(phaseDurations(s0492, settings).map((p) => [p.phase, Math.round(p.ms / min)]));
    expect(d).toEqual({
      'Deck-to-Deck': 617,
      Deployment: 14,
      Descent: 75,
      'On Bottom': 114,
      Ascent: 391,
      Recovery: 21,
    });
  });

  it('leaves out a phase whose end is missing, and shows Recovery without Ascent', () => {
    const partial = {
      ...s0492,
      lowering_additional_meta: { milestones: { lowering_on_surface: '2023-03-15T08:11:12.549Z' } },
    };
    expect(phaseDurations(partial, settings).map((p) => p.phase)).toEqual(['Deck-to-Deck', 'Recovery']);
    expect(phaseDurations({ ...s0492, lowering_additional_meta: {} }, settings).map((p) => p.phase)).toEqual([
      'Deck-to-Deck',
    ]);
  });
});

describe('milestones/stats validation', () => {
  it('accepts the demo dive', () => {
    expect(errorsFor({}, statsValuesOf(s0492.lowering_additional_meta.stats))).toEqual({});
  });

  it('requires start and stop, and valid times', () => {
    expect(errorsFor({ start_ts: '', stop_ts: 'yesterday' })).toEqual({
      start_ts: milestoneMessages.required,
      stop_ts: milestoneMessages.invalidTimestamp,
    });
    expect(errorsFor({ lowering_on_bottom: '2023-02-31 10:00:00.000' })).toEqual({
      lowering_on_bottom: 'Invalid timestamp',
    });
  });

  it('wants stop later than start', () => {
    expect(errorsFor({ stop_ts: s0492.start_ts })).toEqual({
      stop_ts: 'Stop timestamp must be later than start timestamp',
    });
  });

  it('keeps the abort milestone between start and stop', () => {
    expect(errorsFor({ lowering_aborted: '2023-03-15T09:00:00.000Z' })).toEqual({
      lowering_aborted: 'Abort timestamp must be between start and stop timestamps',
    });
    expect(errorsFor({ lowering_aborted: '2023-03-15T01:00:00.000Z' })).toEqual({});
  });

  it('keeps milestones in order and within start/stop', () => {
    expect(errorsFor({ lowering_off_bottom: '2023-03-14T23:00:00.000Z' })).toEqual({
      lowering_off_bottom: 'This milestone is out of sequence.',
    });
    expect(errorsFor({ lowering_descending: '2023-03-14T22:00:00.000Z' })).toEqual({
      lowering_descending: 'This milestone is outside of start/stop timestamps.',
    });
    // An unset milestone does not break the sequence of the others.
    expect(errorsFor({ lowering_on_bottom: '' })).toEqual({});
  });

  it('accepts the Tweak form’s millisecond format, read as UTC', () => {
    expect(errorsFor({ lowering_descending: '2023-03-14 22:30:00.125' })).toEqual({});
  });

  it('checks max depth and the bounding box limits', () => {
    expect(errorsFor({}, { maxDepth: '-3' })).toEqual({ maxDepth: 'Must be a positive floating point number' });
    expect(errorsFor({}, { maxDepth: 'deep' })).toEqual({ maxDepth: 'Must be a positive floating point number' });
    expect(errorsFor({}, { maxDepth: '0' })).toEqual({});
    expect(errorsFor({}, { north: '61', east: '-181', south: '-60', west: '180' })).toEqual({
      north: 'Must be a number between +/- 60',
      east: 'Must be a number between +/- 180',
    });
    expect(errorsFor({}, { north: '23.5' })).toEqual({ east: 'Required', south: 'Required', west: 'Required' });
  });
});

describe('messages after a chart click', () => {
  const fields = milestoneFields(settings);

  it('shows the message a move raised on the next milestone under the moved one', () => {
    const before = errorsFor({});
    // Descending clicked to a time after On Bottom: the rule flags On Bottom.
    const after = errorsFor({ lowering_descending: '2023-03-15T00:00:00.000Z' });
    expect(after).toEqual({ lowering_on_bottom: milestoneMessages.outOfSequence });
    expect(errorsAfterMove(before, after, 'lowering_descending', fields)).toEqual({
      lowering_descending: milestoneMessages.outOfSequence,
    });
  });

  it('leaves a message on the moved one itself, and messages that were there before', () => {
    const before = errorsFor({ lowering_aborted: '2023-03-16T00:00:00.000Z' });
    const after = errorsFor({
      lowering_aborted: '2023-03-16T00:00:00.000Z',
      lowering_off_bottom: '2023-03-14T23:00:00.000Z',
    });
    expect(errorsAfterMove(before, after, 'lowering_off_bottom', fields)).toEqual(after);
  });
});

describe('saving', () => {
  it('sends start/stop, milestones without them, stats, and keeps the rest of the meta', () => {
    const values = { ...milestoneValuesOf(s0492, settings), lowering_on_bottom: '2023-03-14 23:50:00.5' };
    const body = milestonesUpdateBody(
      s0492,
      values,
      { ...noStats, maxDepth: '2012', north: '1', east: '2', south: '-1', west: '-2' },
      settings,
    );
    expect(body.start_ts).toBe('2023-03-14T22:15:39.479Z');
    expect(body.stop_ts).toBe('2023-03-15T08:32:32.654Z');
    expect(body.lowering_additional_meta.milestones).toEqual({
      lowering_descending: '2023-03-14T22:29:58.755Z',
      lowering_on_bottom: '2023-03-14T23:50:00.500Z',
      lowering_off_bottom: '2023-03-15T01:39:44.340Z',
      lowering_on_surface: '2023-03-15T08:11:12.549Z',
      lowering_aborted: null,
    });
    expect(body.lowering_additional_meta).toMatchObject({
      lowering_description: 'Launch target',
      lowering_files: ['FKt230303_S0492_Summary_Report.pdf'],
      stats: { max_depth: 2012, bounding_box: [1, 2, -1, -2] },
    });
  });

  it('stores an empty bounding box and no max depth when cleared', () => {
    expect(statsOf(noStats)).toEqual({ bounding_box: [] });
    const body = milestonesUpdateBody(s0492, milestoneValuesOf(s0492, settings), noStats, settings);
    expect(body.lowering_additional_meta.stats).toEqual({ bounding_box: [] });
  });
});
