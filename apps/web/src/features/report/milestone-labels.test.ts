import { describe, expect, it } from 'vitest';
import { milestoneLabelSides } from './milestone-labels';

describe('milestoneLabelSides', () => {
  const track = [
    { lat: 0, lon: 0 },
    { lat: 1, lon: 10 },
  ];

  it('labels inward: a marker at the west end on its right, one at the east end on its left', () => {
    expect(
      milestoneLabelSides(
        [
          { lat: 0.5, lon: 0 },
          { lat: 0.5, lon: 10 },
        ],
        track,
      ),
    ).toEqual(['right', 'left']);
  });

  it('gives markers on one spot different sides (descending and on bottom; launch and recovery)', () => {
    const west = { lat: 0.5, lon: 0.1 };
    const east = { lat: 0.5, lon: 9.9 };
    expect(milestoneLabelSides([west, west, east, east, west], track)).toEqual([
      'right',
      'top',
      'left',
      'top',
      'bottom',
    ]);
  });

  it('keeps one side per marker when every side is taken', () => {
    const spot = { lat: 0.5, lon: 0 };
    expect(milestoneLabelSides([spot, spot, spot, spot, spot], track)).toEqual([
      'right',
      'top',
      'bottom',
      'left',
      'right',
    ]);
  });
});
