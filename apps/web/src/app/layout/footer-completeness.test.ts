import { describe, expect, it } from 'vitest';
import type { WsCompleteness } from '@bathylog/shared';
import { completenessText } from '../../api/completeness';
import { lanePositions } from '../../features/review/components/completeness-lane';
import { mayWarn, newerOrSame, warningIntervalMs, warningText } from './footer-completeness';

const nav = 'vehicleRealtimeNavData';
const push = (event_id: string, ts: string): WsCompleteness => ({
  event_id,
  event_value: 'FISH',
  ts,
  lowering_id: null,
  state: 'incomplete',
  missing: [nav],
  stale: [],
});

describe("the footer's completeness line", () => {
  it('says complete, waiting, missing and stale in words', () => {
    expect(completenessText({ state: 'complete', missing: [], stale: [] })).toBe('Newest event complete');
    expect(completenessText({ state: 'pending', missing: [nav], stale: [] })).toBe(
      `Newest event waiting for aux data (missing: ${nav})`,
    );
    expect(completenessText({ state: 'incomplete', missing: [nav, 'framegrab'], stale: [] })).toBe(
      `Newest event missing: ${nav}, framegrab`,
    );
    expect(completenessText({ state: 'incomplete', missing: [], stale: [nav] })).toBe(`Newest event stale: ${nav}`);
  });

  it('the warning names the event by its value and time, and what it lacks', () => {
    expect(warningText(push('e1', '2023-03-14T23:01:05.479Z'))).toBe(
      `FISH at 2023-03-14 23:01:05 UTC was logged without ${nav}.`,
    );
    expect(warningText({ ...push('e1', '2023-03-14T23:01:05.479Z'), missing: [], stale: [nav] })).toBe(
      `FISH at 2023-03-14 23:01:05 UTC was logged without fresh ${nav}.`,
    );
  });

  it('warns at most once every three minutes', () => {
    const t0 = 1_000_000_000;
    expect(mayWarn(t0)).toBe(true);
    expect(mayWarn(t0 + 1000)).toBe(false);
    expect(mayWarn(t0 + warningIntervalMs - 1)).toBe(false);
    expect(mayWarn(t0 + warningIntervalMs)).toBe(true);
  });

  it('follows the newest event: a push about an older event does not replace it', () => {
    const shown = { ...push('b', '2026-01-01T00:00:10.000Z') };
    expect(newerOrSame(shown, push('a', '2026-01-01T00:00:05.000Z'))).toBe(false);
    expect(newerOrSame(shown, push('b', '2026-01-01T00:00:10.000Z'))).toBe(true);
    expect(newerOrSame(shown, push('c', '2026-01-01T00:00:11.000Z'))).toBe(true);
    expect(newerOrSame(null, push('a', '2026-01-01T00:00:05.000Z'))).toBe(true);
  });
});

describe('the replay lane', () => {
  it('puts each incomplete event at its place on the slider, neighbours merged', () => {
    const events = Array.from({ length: 1001 }, (_, i) => ({ id: `e${i}` }));
    expect(lanePositions(events, new Set())).toEqual([]);
    expect(lanePositions(events, new Set(['e0', 'e500', 'e1000']))).toEqual([0, 50, 100]);
    // e500 and e501 lie within 0.2 % of each other: one tick.
    expect(lanePositions(events, new Set(['e500', 'e501']))).toEqual([50]);
  });
});
