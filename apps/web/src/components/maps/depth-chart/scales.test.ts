import { describe, expect, it } from 'vitest';
import { depthLabel, nearestIndex, splits, timeLabel, timeStep, valueStep } from './scales';

describe('depth chart scales', () => {
  it('steps depths at 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(valueStep(1000, 150)).toBe(200);
    expect(valueStep(1200, 150)).toBe(250);
    expect(valueStep(4000, 150)).toBe(1000);
    expect(valueStep(10, 150)).toBe(2);
    expect(splits(0, 1050, 250)).toEqual([0, 250, 500, 750, 1000]);
  });

  it('steps times at clock steps aligned to UTC', () => {
    const start = Date.UTC(2023, 2, 3, 10, 7);
    const end = Date.UTC(2023, 2, 3, 18, 40);
    const step = timeStep(end - start, 600);
    expect(step).toBe(3_600_000);
    const ticks = splits(start, end, step);
    expect(ticks.map((t) => timeLabel(t, step))).toEqual([
      '11:00',
      '12:00',
      '13:00',
      '14:00',
      '15:00',
      '16:00',
      '17:00',
      '18:00',
    ]);
    expect(timeLabel(Date.UTC(2023, 2, 4), 86_400_000)).toBe('03-04');
    expect(timeLabel(Date.UTC(2023, 2, 4, 1, 2, 3), 5_000)).toBe('01:02:03');
  });

  it('labels depths without trailing zeros', () => {
    expect(depthLabel(250)).toBe('250');
    expect(depthLabel(2.5)).toBe('2.5');
    expect(depthLabel(0.30000000000000004)).toBe('0.3');
  });

  it('finds the point nearest in time', () => {
    const times = [10, 20, 30, 40];
    expect(nearestIndex(times, 0)).toBe(0);
    expect(nearestIndex(times, 24)).toBe(1);
    expect(nearestIndex(times, 26)).toBe(2);
    expect(nearestIndex(times, 99)).toBe(3);
  });
});
