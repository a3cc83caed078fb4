import { describe, expect, it } from 'vitest';
import { clockOffset } from './server-clock';

describe('server clock offset', () => {
  const at = Date.parse('2026-11-22T12:00:00.000Z');
  it('ignores differences the one-second Date header cannot tell', () => {
    expect(clockOffset('Sun, 22 Nov 2026 12:00:00 GMT', at - 20, at + 20)).toBe(0);
    expect(clockOffset('Sun, 22 Nov 2026 12:00:01 GMT', at, at + 40)).toBe(0);
  });
  it('corrects a laptop clock that is clearly off, either way', () => {
    // The local clock says 12:00:00 while the server says 12:03:00.
    expect(clockOffset('Sun, 22 Nov 2026 12:03:00 GMT', at, at)).toBe(180_500);
    expect(clockOffset('Sun, 22 Nov 2026 11:59:50 GMT', at, at)).toBe(-9_500);
  });
  it('gives nothing without a usable header', () => {
    expect(clockOffset(null, at, at)).toBeNull();
    expect(clockOffset('not a date', at, at)).toBeNull();
  });
});
