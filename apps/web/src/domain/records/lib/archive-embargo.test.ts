import { describe, expect, it } from 'vitest';
import { embargoDateOf, embargoToSave } from './archive-embargo';

describe('the archive form embargo', () => {
  it('keeps the stored instant when the date shown is saved again', () => {
    const stored = '2026-03-14T18:00:00.000Z';
    expect(embargoDateOf(stored)).toBe('2026-03-14');
    expect(embargoToSave('2026-03-14', stored)).toBe(stored);
    expect(embargoToSave(' 2026-03-14 ', stored)).toBe(stored);
  });

  it('opens a typed date at UTC midnight, clears an empty one and refuses junk', () => {
    expect(embargoToSave('2026-03-15', '2026-03-14T18:00:00.000Z')).toBe('2026-03-15T00:00:00.000Z');
    expect(embargoToSave('2026-03-15', null)).toBe('2026-03-15T00:00:00.000Z');
    expect(embargoToSave('', '2026-03-14T18:00:00.000Z')).toBeNull();
    expect(embargoToSave('soon', null)).toBeUndefined();
  });
});
