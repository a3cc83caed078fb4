import { describe, expect, it } from 'vitest';
import { drawText, glyphHeight, hasGlyph, shadeRect, textWidth, type RgbCanvas } from './bitmap-text.js';

function canvas(width: number, height: number, fill = 0): RgbCanvas {
  return { width, height, pixels: new Uint8Array(width * height * 3).fill(fill) };
}

function inked(c: RgbCanvas): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let y = 0; y < c.height; y++)
    for (let x = 0; x < c.width; x++) if (c.pixels[(y * c.width + x) * 3]) out.push([x, y]);
  return out;
}

describe('bitmap text', () => {
  it('measures 6 columns per character less the last gap, times the scale', () => {
    expect(textWidth('', 3)).toBe(0);
    expect(textWidth('A', 1)).toBe(5);
    expect(textWidth('AB', 1)).toBe(11);
    expect(textWidth('MAIN CAM', 3)).toBe((8 * 6 - 1) * 3);
  });

  it('draws glyphs at the scale, inside the measured box, in the colour given', () => {
    const c = canvas(40, 20);
    drawText(c, 'T1', 2, 3, 2, [200, 100, 50]);
    const pixels = inked(c);
    expect(pixels.length).toBeGreaterThan(0);
    for (const [x, y] of pixels) {
      expect(x).toBeGreaterThanOrEqual(2);
      expect(x).toBeLessThan(2 + textWidth('T1', 2));
      expect(y).toBeGreaterThanOrEqual(3);
      expect(y).toBeLessThan(3 + glyphHeight * 2);
    }
    // The top bar of the T: its full width at scale 2.
    for (let x = 2; x < 12; x++)
      expect([...c.pixels.subarray((3 * 40 + x) * 3, (3 * 40 + x) * 3 + 3)]).toEqual([200, 100, 50]);
  });

  it('draws lower case as capitals and unknown characters as a question mark', () => {
    const lower = canvas(10, 10);
    const upper = canvas(10, 10);
    drawText(lower, 'm', 0, 0, 1, [255, 255, 255]);
    drawText(upper, 'M', 0, 0, 1, [255, 255, 255]);
    expect(lower.pixels).toEqual(upper.pixels);
    expect(hasGlyph('é')).toBe(false);
    const unknown = canvas(10, 10);
    const question = canvas(10, 10);
    drawText(unknown, 'é', 0, 0, 1, [255, 255, 255]);
    drawText(question, '?', 0, 0, 1, [255, 255, 255]);
    expect(unknown.pixels).toEqual(question.pixels);
  });

  it('clips at the canvas edges without failing', () => {
    const c = canvas(8, 8);
    expect(() => drawText(c, 'WIDE TEXT', -5, -3, 3, [255, 255, 255])).not.toThrow();
    expect(inked(c).length).toBeGreaterThan(0);
  });

  it('shades a rectangle, clipped to the canvas', () => {
    const c = canvas(4, 4, 200);
    shadeRect(c, 2, 2, 10, 10, 0.5);
    expect(c.pixels[(3 * 4 + 3) * 3]).toBe(100);
    expect(c.pixels[0]).toBe(200);
  });
});
