import { describe, expect, it } from 'vitest';
import { formatBytes } from './format';

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
