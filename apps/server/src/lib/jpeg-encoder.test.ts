import { describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { JpegEncoder } from './jpeg-encoder.js';

function picture(width: number, height: number, paint: (x: number, y: number) => [number, number, number]): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rgb.set(paint(x, y), (y * width + x) * 3);
  }
  return rgb;
}

/** Mean absolute difference per channel between our RGB and a decoded RGBA picture. */
function meanError(rgb: Uint8Array, decoded: { data: Uint8Array; width: number; height: number }): number {
  let sum = 0;
  const n = decoded.width * decoded.height;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) sum += Math.abs(decoded.data[i * 4 + c]! - rgb[i * 3 + c]!);
  }
  return sum / (n * 3);
}

const gradient =
  (w: number, h: number) =>
  (x: number, y: number): [number, number, number] => [
    Math.round((x * 255) / w),
    Math.round((y * 255) / h),
    128 + Math.round(60 * Math.sin(x / 9) * Math.cos(y / 7)),
  ];

describe('JpegEncoder', () => {
  it('writes a baseline JFIF file that a decoder reads back close to the original', () => {
    const rgb = picture(640, 360, gradient(640, 360));
    const file = new JpegEncoder(640, 360, 85).encode(rgb);
    expect([...file.subarray(0, 4)]).toEqual([0xff, 0xd8, 0xff, 0xe0]);
    expect(file.subarray(6, 10).toString('latin1')).toBe('JFIF');
    expect([...file.subarray(-2)]).toEqual([0xff, 0xd9]);
    const decoded = jpeg.decode(file, { useTArray: true });
    expect(decoded.width).toBe(640);
    expect(decoded.height).toBe(360);
    expect(meanError(rgb, decoded)).toBeLessThan(3);
  });

  it('handles sizes that are not multiples of the 16-pixel blocks', () => {
    for (const [w, h] of [
      [1, 1],
      [17, 9],
      [37, 21],
      [100, 75],
    ] as const) {
      // A gentle gradient: 4:2:0 chroma cannot follow steep colour changes on tiny pictures.
      const rgb = picture(w, h, (x, y) => [100 + x, 80 + y, 150 - x]);
      const decoded = jpeg.decode(new JpegEncoder(w, h, 90).encode(rgb), { useTArray: true });
      expect([decoded.width, decoded.height]).toEqual([w, h]);
      expect(meanError(rgb, decoded), `${w}x${h}`).toBeLessThan(3);
    }
  });

  it('keeps saturated colours and hard edges (byte stuffing, large coefficients)', () => {
    const rgb = picture(64, 48, (x, y) => (((x >> 3) + (y >> 3)) % 2 ? [255, 0, 0] : [0, 255, 255]));
    const decoded = jpeg.decode(new JpegEncoder(64, 48, 95).encode(rgb), { useTArray: true });
    expect(meanError(rgb, decoded)).toBeLessThan(12);
    // The centre of a red square is red.
    const i = (4 * 64 + 12) * 4;
    expect(decoded.data[i]!).toBeGreaterThan(200);
    expect(decoded.data[i + 1]!).toBeLessThan(60);
  });

  it('lower quality gives a smaller file', () => {
    const rgb = picture(320, 180, gradient(320, 180));
    const small = new JpegEncoder(320, 180, 30).encode(rgb).length;
    const large = new JpegEncoder(320, 180, 95).encode(rgb).length;
    expect(small).toBeLessThan(large);
  });

  it('re-encoding only the changed blocks gives the same file as encoding the whole picture', () => {
    const w = 160;
    const h = 90;
    const encoder = new JpegEncoder(w, h, 80);
    const base = picture(w, h, gradient(w, h));
    const prepared = encoder.prepare(base);
    const changed = base.slice();
    for (let y = 40; y < 60; y++) for (let x = 10; x < 70; x++) changed.set([255, 255, 0], (y * w + x) * 3);
    const rect = { x: 10, y: 40, width: 60, height: 20 };
    const partial = encoder.encodeChanged(prepared, changed, [rect]);
    expect(partial.equals(encoder.encode(changed))).toBe(true);
    // The cached background blocks are reused again, with a different change.
    const other = base.slice();
    other.set([0, 0, 0], (5 * w + 150) * 3);
    const again = encoder.encodeChanged(
      prepared,
      other,
      [{ x: 150, y: 5, width: 1, height: 1 }],
      new Int16Array(prepared.coefficients.length),
    );
    expect(again.equals(encoder.encode(other))).toBe(true);
    // Nothing changed: the background itself.
    expect(encoder.encodeChanged(prepared, base, []).equals(encoder.encode(base))).toBe(true);
  });

  it('rejects impossible sizes and pixel buffers of the wrong length', () => {
    expect(() => new JpegEncoder(0, 10)).toThrow(RangeError);
    expect(() => new JpegEncoder(10, 70000)).toThrow(RangeError);
    expect(() => new JpegEncoder(1.5, 10)).toThrow(RangeError);
    expect(() => new JpegEncoder(10, 10).encode(new Uint8Array(10))).toThrow(/expected 300 RGB bytes/);
  });
});
