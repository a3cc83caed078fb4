import { describe, expect, it } from 'vitest';
import { freeSpaceClass } from './footer-status';

describe("the footer's free-space colour", () => {
  it('is red by default, amber under 90 %, green under 75 %', () => {
    expect(freeSpaceClass(null)).toBe('text-danger');
    expect(freeSpaceClass(95)).toBe('text-danger');
    expect(freeSpaceClass(90)).toBe('text-danger');
    expect(freeSpaceClass(89)).toBe('text-warning');
    expect(freeSpaceClass(75)).toBe('text-warning');
    expect(freeSpaceClass(74)).toBe('text-success');
  });
});
