import { describe, expect, it } from 'vitest';
import type { Recording } from '@bathylog/shared';
import { cameraTimelines, formatOffset, momentOf, nextOn, resolveOn } from './video-time';

const t0 = Date.UTC(2023, 2, 14, 22, 30);
const recording = (id: string, camera: string, startS: number, seconds: number): Recording => ({
  id,
  lowering_id: 'l',
  camera,
  start_ts: new Date(t0 + startS * 1000).toISOString(),
  stop_ts: new Date(t0 + (startS + seconds) * 1000).toISOString(),
  duration_ms: seconds * 1000,
  copies: [],
});

describe('the replay’s video time line', () => {
  const lines = cameraTimelines(
    [recording('b', 'cam1', 40, 24), recording('a', 'cam1', 0, 40), recording('c', 'cam2', 0, 10)],
    [{ camera: 'cam2', offset_ms: 2000 }],
  );
  const cam1 = lines[0]!;

  it('resolves a moment to the recording and offset, the boundary to the next segment, a gap to none', () => {
    expect(lines.map((l) => l.camera)).toEqual(['cam1', 'cam2']);
    expect(resolveOn(cam1, t0 + 37_200)).toMatchObject({ recording: { id: 'a' }, offset_ms: 37_200 });
    expect(resolveOn(cam1, t0 + 40_000)).toMatchObject({ recording: { id: 'b' }, offset_ms: 0 });
    expect(resolveOn(cam1, t0 + 64_001)).toBeNull();
    // cam2's clock ran 2 s fast: its recording started 2 s earlier in true time.
    expect(resolveOn(lines[1]!, t0)).toMatchObject({ recording: { id: 'c' }, offset_ms: 2000 });
  });

  it('turns a position in the video back into a moment, and finds the next segment', () => {
    expect(momentOf(cam1, 'b', 1.5)).toBe(t0 + 41_500);
    expect(nextOn(cam1, 'a')?.id).toBe('b');
    expect(nextOn(cam1, 'b')).toBeNull();
    expect(formatOffset(37_200)).toBe('00:37.2');
    expect(formatOffset(3_723_400)).toBe('1:02:03.4');
  });
});
