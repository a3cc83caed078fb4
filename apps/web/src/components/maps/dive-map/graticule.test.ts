import { describe, expect, it } from 'vitest';
import { formatGraticuleLabel, graticuleStep } from './graticule';

describe('graticule', () => {
  it('spaces lines so that a few cross the view', () => {
    expect(graticuleStep(180)).toBe(30);
    expect(graticuleStep(0.02)).toBe(0.005);
    expect(graticuleStep(0.02, 10)).toBe(0.002);
    expect(graticuleStep(0.004, 2)).toBe(0.002);
    for (const span of [120, 7, 0.3, 0.01]) {
      const step = graticuleStep(span);
      expect(span / step).toBeLessThanOrEqual(6);
      expect(span / step).toBeGreaterThanOrEqual(1);
    }
  });

  it('labels with hemispheres and as many decimals as the spacing needs', () => {
    expect(formatGraticuleLabel(23.55, 'lat', 0.05)).toBe('23.55° N');
    expect(formatGraticuleLabel(-45.145, 'lon', 0.005)).toBe('45.145° W');
    expect(formatGraticuleLabel(-10, 'lat', 10)).toBe('10° S');
    expect(formatGraticuleLabel(0, 'lon', 1)).toBe('0°');
    expect(formatGraticuleLabel(1e-12, 'lon', 0.5)).toBe('0°');
  });
});
