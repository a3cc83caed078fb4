import { describe, expect, it } from 'vitest';
import { formatAgo, formatBytes } from './format';

describe('formatBytes (decimal SI, 3 significant digits)', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1 kB'],
    [1536, '1.54 kB'],
    [38_400_000_000, '38.4 GB'],
    [1_234_567_890_123, '1.23 TB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('formatAgo (last contact of a ship or follower)', () => {
  const now = Date.parse('2026-03-03T12:00:00.000Z');
  it.each([
    ['2026-03-03T12:00:00.000Z', 'just now'],
    ['2026-03-03T12:00:10.000Z', 'just now'],
    ['2026-03-03T11:59:18.000Z', '42 s ago'],
    ['2026-03-03T11:55:00.000Z', '5 min ago'],
    ['2026-03-03T09:00:00.000Z', '3 h ago'],
    ['2026-03-01T12:00:00.000Z', '2 days ago'],
    ['not a time', ''],
  ])('%s → %s', (iso, text) => {
    expect(formatAgo(iso, now)).toBe(text);
  });
});
