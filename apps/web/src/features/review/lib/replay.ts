/**
 * The replay's state machine (docs/screens.md#replay-timing), pure so it can be tested
 * without timers: paused, playing (one event per 3 s), fast-forward and fast-reverse (one per
 * 1 s). Reaching either end returns to paused; any user action on the list, slider, filter,
 * comment or image pauses.
 */
export type ReplayMode = 'paused' | 'playing' | 'ff' | 'fr';

export interface ReplayState {
  mode: ReplayMode;
  /** Index of the selected event in the filtered list; 0 when the list is empty. */
  index: number;
  /** Number of events in the filtered list. */
  count: number;
}

export type ReplayAction =
  | { type: 'togglePlay' }
  | { type: 'fastForward' }
  | { type: 'fastReverse' }
  | { type: 'first' }
  | { type: 'last' }
  /** The timer fired: one step in the current direction. */
  | { type: 'tick' }
  /** The user picked an event (slider, list click, page change, keyboard): pauses. */
  | { type: 'select'; index: number }
  /** Comment modal, image preview, filter or ASNAP change. */
  | { type: 'pause' }
  /** The filtered list changed length (keeps the mode, clamps the index). */
  | { type: 'count'; count: number; index: number };

/** ms between steps per mode (docs/screens.md#replay-timing: 3000 play, 1000 fast). */
export const replayIntervals: Record<Exclude<ReplayMode, 'paused'>, number> = { playing: 3000, ff: 1000, fr: 1000 };

const clamp = (index: number, count: number) => (count === 0 ? 0 : Math.min(Math.max(0, index), count - 1));

export function replayReducer(state: ReplayState, action: ReplayAction): ReplayState {
  const last = Math.max(0, state.count - 1);
  switch (action.type) {
    case 'togglePlay':
      if (state.mode !== 'paused') return { ...state, mode: 'paused' };
      return state.count > 0 && state.index < last ? { ...state, mode: 'playing' } : state;
    case 'fastForward':
      return state.count > 0 && state.index < last ? { ...state, mode: 'ff' } : { ...state, mode: 'paused' };
    case 'fastReverse':
      return state.count > 0 && state.index > 0 ? { ...state, mode: 'fr' } : { ...state, mode: 'paused' };
    case 'first':
      return { ...state, mode: 'paused', index: 0 };
    case 'last':
      return { ...state, mode: 'paused', index: last };
    case 'tick': {
      if (state.mode === 'paused') return state;
      const index = clamp(state.index + (state.mode === 'fr' ? -1 : 1), state.count);
      const atEnd = state.mode === 'fr' ? index === 0 : index === last;
      return { ...state, index, mode: atEnd ? 'paused' : state.mode };
    }
    case 'select':
      return { ...state, mode: 'paused', index: clamp(action.index, state.count) };
    case 'pause':
      return state.mode === 'paused' ? state : { ...state, mode: 'paused' };
    case 'count': {
      const index = clamp(action.index, action.count);
      return { count: action.count, index, mode: action.count === 0 ? 'paused' : state.mode };
    }
  }
}
