import { describe, expect, it } from 'vitest';
import { cruiseMenuPath, selectionFromParams } from './cruise-menu-link';

describe('cruise menu links', () => {
  it('name the cruise and lowering to open, and read back', () => {
    const path = cruiseMenuPath({ cruiseId: 'c1', loweringId: 'l1' });
    expect(path).toBe('/cruise_menu?cruise=c1&lowering=l1');
    expect(selectionFromParams(new URLSearchParams(path.split('?')[1]))).toEqual({ cruiseId: 'c1', loweringId: 'l1' });
    expect(cruiseMenuPath({ cruiseId: null, loweringId: 'l1' })).toBe('/cruise_menu');
    expect(selectionFromParams(new URLSearchParams('lowering=l1'))).toBeNull();
  });
});
