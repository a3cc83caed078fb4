import type sharpModule from 'sharp';
import { lazyPackage } from '../lib/lazy-package.js';
import { drawText, shadeRect, textWidth, type Rgb, type RgbCanvas } from './bitmap-text.js';
import { hashString, seededRandom } from './demo-random.js';

/** sharp, loaded when the demo's pictures are made. */
const loadSharp = lazyPackage<typeof sharpModule>('sharp');
/**
 * Generated frame grabs for the demo dive: a seafloor-like picture per camera (a few variants
 * each), with the camera name, UTC time and depth stamped on it as an ROV video overlay would.
 * Backgrounds are painted once per camera and variant; sharp encodes each picture.
 */

export interface FramegrabOverlay {
  /** Top-left label, e.g. the camera name. */
  title: string;
  /** First bottom line, e.g. `2023-03-15 05:26:14.655 UTC`. */
  time: string;
  /** Second bottom line, e.g. `DEPTH 1987.21 M  ALT 3.1 M  HDG 093`. */
  detail: string;
}

/** Smooth 2-D value noise on a 256x256 lattice that wraps. */
class ValueNoise {
  private readonly lattice = new Float32Array(256 * 256);

  constructor(random: () => number) {
    for (let i = 0; i < this.lattice.length; i++) this.lattice[i] = random();
  }

  at(x: number, y: number): number {
    const ix = Math.floor(x);
    const iy = Math.floor(y);
    let fx = x - ix;
    let fy = y - iy;
    fx = fx * fx * (3 - 2 * fx);
    fy = fy * fy * (3 - 2 * fy);
    const x0 = ix & 255;
    const y0 = iy & 255;
    const x1 = (x0 + 1) & 255;
    const y1 = (y0 + 1) & 255;
    const l = this.lattice;
    const top = l[y0 * 256 + x0]! + (l[y0 * 256 + x1]! - l[y0 * 256 + x0]!) * fx;
    const bottom = l[y1 * 256 + x0]! + (l[y1 * 256 + x1]! - l[y1 * 256 + x0]!) * fx;
    return top + (bottom - top) * fy;
  }

  /** Three octaves, 0..1. */
  fbm(x: number, y: number): number {
    return (this.at(x, y) * 4 + this.at(x * 2.03, y * 2.03) * 2 + this.at(x * 4.01, y * 4.01)) / 7;
  }
}

const clamp255 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);

function setPixel(c: RgbCanvas, x: number, y: number, r: number, g: number, b: number): void {
  const i = (y * c.width + x) * 3;
  c.pixels[i] = clamp255(r);
  c.pixels[i + 1] = clamp255(g);
  c.pixels[i + 2] = clamp255(b);
}

/** A forward-looking view: dark water above a lit, fading seafloor with rock outcrops. */
function paintForward(c: RgbCanvas, random: () => number): void {
  const { width: w, height: h } = c;
  const texture = new ValueNoise(random);
  const rocks = new ValueNoise(random);
  const horizon = h * (0.28 + 0.1 * random());
  const sediment: Rgb = [140 + 20 * random(), 128 + 14 * random(), 96 + 14 * random()];
  const far: Rgb = [10, 44, 58];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (y < horizon) {
        const t = y / horizon;
        setPixel(c, x, y, 3 + 7 * t, 12 + 32 * t, 24 + 34 * t);
        continue;
      }
      const dy = y - horizon + 6;
      const u = ((x - w / 2) / dy) * 5;
      const v = 320 / dy;
      const n = texture.fbm(u, v);
      const isRock = rocks.fbm(u * 0.3 + 40, v * 0.3) > 0.58;
      const nearness = Math.min(1, (y - horizon) / (h - horizon));
      const light = Math.exp(-Math.pow((x - w / 2) / (w * 0.55), 2)) * Math.pow(nearness, 0.6);
      const shade = (0.3 + 0.8 * light) * (0.7 + 0.6 * n);
      const base: Rgb = isRock ? [52, 50, 50] : sediment;
      const fog = Math.exp((-40 / dy) * 0.5);
      setPixel(
        c,
        x,
        y,
        far[0] + (base[0] * shade - far[0]) * fog,
        far[1] + (base[1] * shade - far[1]) * fog,
        far[2] + (base[2] * shade - far[2]) * fog,
      );
    }
  }
  marineSnow(c, random, 160);
}

/** A down-looking close-up: sediment, rock and a few sponges under a light pool. */
function paintDown(c: RgbCanvas, random: () => number): void {
  const { width: w, height: h } = c;
  const texture = new ValueNoise(random);
  const rocks = new ValueNoise(random);
  const sediment: Rgb = [150 + 20 * random(), 136 + 14 * random(), 104 + 12 * random()];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const n = texture.fbm(x / 18, y / 18);
      const r = rocks.fbm(x / 90 + 17, y / 90);
      const isRock = r > 0.57;
      const dx = (x - w / 2) / (w * 0.62);
      const dy = (y - h / 2) / (h * 0.62);
      const light = Math.exp(-(dx * dx + dy * dy));
      const edge = isRock ? 0.8 + Math.min(0.4, (r - 0.57) * 6) : 1;
      const shade = (0.25 + 0.85 * light) * (0.72 + 0.56 * n) * edge;
      const base: Rgb = isRock ? [60, 57, 56] : sediment;
      setPixel(c, x, y, base[0] * shade, base[1] * shade + 4, base[2] * shade + 8);
    }
  }
  // Sponges and anemones: small pale blobs.
  const blobs = 6 + Math.floor(random() * 8);
  for (let k = 0; k < blobs; k++) {
    const cx = random() * w;
    const cy = random() * h;
    const radius = 3 + random() * 7;
    const color: Rgb = random() < 0.5 ? [235, 228, 200] : [230, 150, 90];
    for (let y = Math.floor(cy - radius); y <= cy + radius; y++) {
      for (let x = Math.floor(cx - radius); x <= cx + radius; x++) {
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        const d = Math.hypot(x - cx, y - cy) / radius;
        if (d > 1) continue;
        const a = 1 - d * d * 0.6;
        const i = (y * w + x) * 3;
        setPixel(
          c,
          x,
          y,
          c.pixels[i]! * (1 - a) + color[0] * a,
          c.pixels[i + 1]! * (1 - a) + color[1] * a,
          c.pixels[i + 2]! * (1 - a) + color[2] * a,
        );
      }
    }
  }
  marineSnow(c, random, 60);
}

/** Open water, for pictures taken far above the seafloor. */
function paintWater(c: RgbCanvas, random: () => number): void {
  const { width: w, height: h } = c;
  const glow = new ValueNoise(random);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const dx = (x - w / 2) / (w * 0.7);
      const dy = (y - h / 2) / (h * 0.9);
      const light = Math.exp(-(dx * dx + dy * dy)) * (0.85 + 0.3 * glow.fbm(x / 60, y / 60));
      setPixel(c, x, y, 2 + 10 * light, 10 + 40 * light, 22 + 52 * light);
    }
  }
  marineSnow(c, random, 420);
}

function marineSnow(c: RgbCanvas, random: () => number, count: number): void {
  for (let k = 0; k < count; k++) {
    const x = Math.floor(random() * c.width);
    const y = Math.floor(random() * c.height);
    const size = random() < 0.8 ? 1 : 2;
    const a = 0.3 + 0.5 * random();
    for (let dy = 0; dy < size; dy++) {
      for (let dx = 0; dx < size; dx++) {
        if (x + dx >= c.width || y + dy >= c.height) continue;
        const i = ((y + dy) * c.width + x + dx) * 3;
        setPixel(
          c,
          x + dx,
          y + dy,
          c.pixels[i]! + (220 - c.pixels[i]!) * a,
          c.pixels[i + 1]! + (225 - c.pixels[i + 1]!) * a,
          c.pixels[i + 2]! + (215 - c.pixels[i + 2]!) * a,
        );
      }
    }
  }
}

/** What the camera sees: the seafloor, or open water during descent and ascent. */
export type Scene = 'seafloor' | 'midwater';

export class FramegrabRenderer {
  private readonly backgrounds = new Map<string, Uint8Array>();
  private readonly canvas: RgbCanvas;

  constructor(
    readonly width = 640,
    readonly height = 360,
    private readonly variants = 4,
    private readonly quality = 80,
  ) {
    this.canvas = { width, height, pixels: new Uint8Array(width * height * 3) };
  }

  private background(camera: string, variant: number, scene: Scene): Uint8Array {
    const key = `${scene}:${camera}#${variant}`;
    let bg = this.backgrounds.get(key);
    if (!bg) {
      const canvas: RgbCanvas = {
        width: this.width,
        height: this.height,
        pixels: new Uint8Array(this.width * this.height * 3),
      };
      const random = seededRandom(`framegrab-background:${key}`);
      // The main camera looks ahead; the others look down at the seafloor.
      if (scene === 'midwater') paintWater(canvas, random);
      else if (/main|forward|hd|pilot/i.test(camera)) paintForward(canvas, random);
      else paintDown(canvas, random);
      bg = canvas.pixels;
      this.backgrounds.set(key, bg);
    }
    return bg;
  }

  /** A JPEG of `camera`'s view (background chosen by `variantKey`) with the overlay text. */
  render(camera: string, variantKey: string, overlay: FramegrabOverlay, scene: Scene = 'seafloor'): Promise<Buffer> {
    const bg = this.background(camera, hashString(variantKey) % this.variants, scene);
    const c = this.canvas;
    c.pixels.set(bg);
    const pad = 6;
    const box = (x: number, y: number, w: number, h: number) => shadeRect(c, x, y, w, h, 0.5);
    const white: Rgb = [245, 245, 240];
    const amber: Rgb = [255, 206, 84];

    const titleScale = 3;
    box(8, 8, textWidth(overlay.title, titleScale) + pad * 2, 7 * titleScale + pad * 2);
    drawText(c, overlay.title, 8 + pad, 8 + pad, titleScale, amber);

    const timeScale = 2;
    const detailScale = 2;
    const bottomHeight = 7 * timeScale + 6 + 7 * detailScale + pad * 2;
    const bottomWidth = Math.max(textWidth(overlay.time, timeScale), textWidth(overlay.detail, detailScale)) + pad * 2;
    const top = this.height - 8 - bottomHeight;
    box(8, top, Math.min(this.width - 16, bottomWidth), bottomHeight);
    drawText(c, overlay.time, 8 + pad, top + pad, timeScale, white);
    drawText(c, overlay.detail, 8 + pad, top + pad + 7 * timeScale + 6, detailScale, white);

    // sharp reads its input while encoding, after this returns: it gets a copy of the canvas.
    return loadSharp()(Buffer.from(c.pixels), { raw: { width: this.width, height: this.height, channels: 3 } })
      .jpeg({ quality: this.quality })
      .toBuffer();
  }
}
