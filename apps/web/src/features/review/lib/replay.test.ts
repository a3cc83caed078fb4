import { describe, expect, it } from 'vitest';
import { replayIntervals, replayReducer, type ReplayAction, type ReplayState } from './replay';

const run = (state: ReplayState, ...actions: ReplayAction[]) => actions.reduce(replayReducer, state);
const at = (index: number, mode: ReplayState['mode'] = 'paused', count = 5): ReplayState => ({ mode, index, count });

describe('replay state machine', () => {
  it('play advances one event per tick and pauses on reaching the last event', () => {
    let s = run(at(2), { type: 'togglePlay' });
    expect(s.mode).toBe('playing');
    s = run(s, { type: 'tick' });
    expect(s).toEqual(at(3, 'playing'));
    s = run(s, { type: 'tick' });
    expect(s).toEqual(at(4, 'paused'));
    expect(run(s, { type: 'tick' })).toEqual(at(4, 'paused'));
  });

  it('the play button pauses while playing or moving fast', () => {
    for (const mode of ['playing', 'ff', 'fr'] as const)
      expect(run(at(2, mode), { type: 'togglePlay' }).mode).toBe('paused');
  });

  it('fast-forward and fast-reverse step one event per tick in their direction and stop at the ends', () => {
    expect(run(at(1), { type: 'fastForward' }, { type: 'tick' })).toEqual(at(2, 'ff'));
    expect(run(at(3), { type: 'fastReverse' }, { type: 'tick' })).toEqual(at(2, 'fr'));
    expect(run(at(1), { type: 'fastReverse' }, { type: 'tick' })).toEqual(at(0, 'paused'));
    expect(run(at(4), { type: 'fastForward' }).mode).toBe('paused');
    expect(run(at(0), { type: 'fastReverse' }).mode).toBe('paused');
  });

  it('first and last jump to the ends and pause', () => {
    expect(run(at(2, 'playing'), { type: 'first' })).toEqual(at(0));
    expect(run(at(2, 'fr'), { type: 'last' })).toEqual(at(4));
  });

  it('a user selection (slider, click, page, keys) pauses and clamps; other pauses keep the event', () => {
    expect(run(at(2, 'playing'), { type: 'select', index: 9 })).toEqual(at(4));
    expect(run(at(2, 'ff'), { type: 'pause' })).toEqual(at(2));
  });

  it('play at the last event or on an empty list stays paused; a shrinking list clamps the index', () => {
    expect(run(at(4), { type: 'togglePlay' }).mode).toBe('paused');
    expect(run(at(0, 'paused', 0), { type: 'togglePlay' }).mode).toBe('paused');
    expect(run(at(4, 'playing'), { type: 'count', count: 3, index: 4 })).toEqual(at(2, 'playing', 3));
    expect(run(at(1, 'playing'), { type: 'count', count: 0, index: 0 })).toEqual(at(0, 'paused', 0));
  });

  it('steps every 3 s while playing and every 1 s while moving fast', () => {
    expect(replayIntervals).toEqual({ playing: 3000, ff: 1000, fr: 1000 });
  });
});
