/**
 * A 5x7 bitmap font and a text renderer for RGB buffers (3 bytes per pixel), used to stamp
 * camera name, time and depth on generated frame grabs. Upper case only: lower-case letters are
 * drawn as capitals; characters without a glyph are drawn as '?'.
 */

// Each glyph: 7 rows of 5 columns, '#' = ink.
// prettier-ignore
const glyphRows: Record<string, string[]> = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  C: ['.###.', '#...#', '#....', '#....', '#....', '#...#', '.###.'],
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  F: ['#####', '#....', '#....', '####.', '#....', '#....', '#....'],
  G: ['.###.', '#...#', '#....', '#.###', '#...#', '#...#', '.####'],
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  I: ['.###.', '..#..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  J: ['..###', '...#.', '...#.', '...#.', '...#.', '#..#.', '.##..'],
  K: ['#...#', '#..#.', '#.#..', '##...', '#.#..', '#..#.', '#...#'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  M: ['#...#', '##.##', '#.#.#', '#.#.#', '#...#', '#...#', '#...#'],
  N: ['#...#', '#...#', '##..#', '#.#.#', '#..##', '#...#', '#...#'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  P: ['####.', '#...#', '#...#', '####.', '#....', '#....', '#....'],
  Q: ['.###.', '#...#', '#...#', '#...#', '#.#.#', '#..#.', '.##.#'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
  S: ['.####', '#....', '#....', '.###.', '....#', '....#', '####.'],
  T: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '..#..'],
  U: ['#...#', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  V: ['#...#', '#...#', '#...#', '#...#', '#...#', '.#.#.', '..#..'],
  W: ['#...#', '#...#', '#...#', '#.#.#', '#.#.#', '#.#.#', '.#.#.'],
  X: ['#...#', '#...#', '.#.#.', '..#..', '.#.#.', '#...#', '#...#'],
  Y: ['#...#', '#...#', '.#.#.', '..#..', '..#..', '..#..', '..#..'],
  Z: ['#####', '....#', '...#.', '..#..', '.#...', '#....', '#####'],
  '0': ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'],
  '1': ['..#..', '.##..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  '2': ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  '3': ['#####', '...#.', '..#..', '...#.', '....#', '#...#', '.###.'],
  '4': ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  '5': ['#####', '#....', '####.', '....#', '....#', '#...#', '.###.'],
  '6': ['..##.', '.#...', '#....', '####.', '#...#', '#...#', '.###.'],
  '7': ['#####', '....#', '...#.', '..#..', '.#...', '.#...', '.#...'],
  '8': ['.###.', '#...#', '#...#', '.###.', '#...#', '#...#', '.###.'],
  '9': ['.###.', '#...#', '#...#', '.####', '....#', '...#.', '.##..'],
  ' ': ['.....', '.....', '.....', '.....', '.....', '.....', '.....'],
  '.': ['.....', '.....', '.....', '.....', '.....', '.##..', '.##..'],
  ',': ['.....', '.....', '.....', '.....', '.##..', '..#..', '.#...'],
  ':': ['.....', '.##..', '.##..', '.....', '.##..', '.##..', '.....'],
  '-': ['.....', '.....', '.....', '#####', '.....', '.....', '.....'],
  '+': ['.....', '..#..', '..#..', '#####', '..#..', '..#..', '.....'],
  '_': ['.....', '.....', '.....', '.....', '.....', '.....', '#####'],
  '/': ['.....', '....#', '...#.', '..#..', '.#...', '#....', '.....'],
  '(': ['...#.', '..#..', '.#...', '.#...', '.#...', '..#..', '...#.'],
  ')': ['.#...', '..#..', '...#.', '...#.', '...#.', '..#..', '.#...'],
  '#': ['.#.#.', '.#.#.', '#####', '.#.#.', '#####', '.#.#.', '.#.#.'],
  "'": ['..#..', '..#..', '.#...', '.....', '.....', '.....', '.....'],
  '?': ['.###.', '#...#', '....#', '...#.', '..#..', '.....', '..#..'],
};

export const glyphWidth = 5;
export const glyphHeight = 7;

/** Glyph bitmaps: 7 numbers per glyph, bit 4 = leftmost column. */
const glyphs = new Map<string, number[]>(
  Object.entries(glyphRows).map(([ch, rows]) => [
    ch,
    rows.map((r) => parseInt(r.replace(/#/g, '1').replace(/\./g, '0'), 2)),
  ]),
);

export function hasGlyph(ch: string): boolean {
  return glyphs.has(ch.toUpperCase());
}

/** Pixel width of `text` at `scale` (one blank column between characters). */
export function textWidth(text: string, scale: number): number {
  return text.length === 0 ? 0 : (text.length * (glyphWidth + 1) - 1) * scale;
}

export interface RgbCanvas {
  width: number;
  height: number;
  /** 3 bytes per pixel, row-major. */
  pixels: Uint8Array;
}

export type Rgb = readonly [number, number, number];

/** Draws `text` with its top-left corner at (x, y); pixels outside the canvas are skipped. */
export function drawText(canvas: RgbCanvas, text: string, x: number, y: number, scale: number, color: Rgb): void {
  const { width, height, pixels } = canvas;
  let cx = x;
  for (const raw of text) {
    const glyph = glyphs.get(raw.toUpperCase()) ?? glyphs.get('?')!;
    for (let row = 0; row < glyphHeight; row++) {
      const bits = glyph[row]!;
      if (!bits) continue;
      for (let col = 0; col < glyphWidth; col++) {
        if (!(bits & (1 << (glyphWidth - 1 - col)))) continue;
        const px0 = cx + col * scale;
        const py0 = y + row * scale;
        for (let dy = 0; dy < scale; dy++) {
          const py = py0 + dy;
          if (py < 0 || py >= height) continue;
          for (let dx = 0; dx < scale; dx++) {
            const px = px0 + dx;
            if (px < 0 || px >= width) continue;
            const i = (py * width + px) * 3;
            pixels[i] = color[0];
            pixels[i + 1] = color[1];
            pixels[i + 2] = color[2];
          }
        }
      }
    }
    cx += (glyphWidth + 1) * scale;
  }
}

/** Darkens a rectangle (alpha 0..1 of black) so text over a busy picture stays readable. */
export function shadeRect(canvas: RgbCanvas, x: number, y: number, w: number, h: number, alpha: number): void {
  const { width, height, pixels } = canvas;
  const keep = 1 - alpha;
  for (let py = Math.max(0, y); py < Math.min(height, y + h); py++) {
    for (let px = Math.max(0, x); px < Math.min(width, x + w); px++) {
      const i = (py * width + px) * 3;
      pixels[i] = pixels[i]! * keep;
      pixels[i + 1] = pixels[i + 1]! * keep;
      pixels[i + 2] = pixels[i + 2]! * keep;
    }
  }
}
