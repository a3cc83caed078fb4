/**
 * A small baseline JPEG encoder (JFIF, YCbCr 4:2:0, the standard Huffman tables of ITU T.81
 * Annex K). Written for the demo frame grabs: hundreds of pictures that share a background and
 * differ only in a text overlay. jpeg-js takes ~30 ms per 640x360 picture; this one keeps the
 * quantised DCT blocks of a prepared background and only recomputes the blocks a caller drew
 * over, so a picture costs a few milliseconds (mostly entropy coding).
 */

// prettier-ignore
const lumaQuant = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
  14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
  18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
  49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
// prettier-ignore
const chromaQuant = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
  24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];
/** zigzag position → natural (row-major) index */
// prettier-ignore
const zigzag = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,
  7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31,
  39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

interface HuffmanSpec {
  bits: number[];
  values: number[];
}
const dcLuma: HuffmanSpec = {
  bits: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
  values: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
};
const dcChroma: HuffmanSpec = {
  bits: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
  values: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
};
// prettier-ignore
const acLuma: HuffmanSpec = {
  bits: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d],
  values: [
    0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
    0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0,
    0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28,
    0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
    0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
    0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
    0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
    0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5,
    0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
    0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
    0xf9, 0xfa,
  ],
};
// prettier-ignore
const acChroma: HuffmanSpec = {
  bits: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
  values: [
    0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
    0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0,
    0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26,
    0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
    0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
    0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
    0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5,
    0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3,
    0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
    0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
    0xf9, 0xfa,
  ],
};

/** Canonical codes (T.81 Annex C): code and length per symbol. */
function huffmanTable(spec: HuffmanSpec): { codes: Uint16Array; sizes: Uint8Array } {
  const codes = new Uint16Array(256);
  const sizes = new Uint8Array(256);
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < spec.bits[len - 1]!; i++) {
      const symbol = spec.values[k++]!;
      codes[symbol] = code++;
      sizes[symbol] = len;
    }
    code <<= 1;
  }
  return { codes, sizes };
}

function scaledQuant(base: number[], quality: number): Uint8Array {
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const scale = q < 50 ? Math.floor(5000 / q) : 200 - q * 2;
  return Uint8Array.from(base, (v) => Math.min(255, Math.max(1, Math.floor((v * scale + 50) / 100))));
}

/**
 * The forward DCT is the AAN factorisation (Arai, Agui, Nakajima): 5 multiplies per 1-D pass;
 * its output scale per frequency is folded into the quantiser divisors.
 */
const aanScale = [1, 1.387039845, 1.306562965, 1.175875602, 1, 0.785694958, 0.5411961, 0.275899379];

function divisors(quant: Uint8Array): Float64Array {
  const out = new Float64Array(64);
  for (let v = 0; v < 8; v++)
    for (let u = 0; u < 8; u++) out[v * 8 + u] = quant[v * 8 + u]! * aanScale[v]! * aanScale[u]! * 8;
  return out;
}

/** In-place 1-D AAN DCT of 8 values at `data[o], data[o+s], … data[o+7s]`. */
function dct8(data: Float64Array, o: number, s: number): void {
  const d0 = data[o]!,
    d1 = data[o + s]!,
    d2 = data[o + 2 * s]!,
    d3 = data[o + 3 * s]!;
  const d4 = data[o + 4 * s]!,
    d5 = data[o + 5 * s]!,
    d6 = data[o + 6 * s]!,
    d7 = data[o + 7 * s]!;
  const t0 = d0 + d7,
    t7 = d0 - d7,
    t1 = d1 + d6,
    t6 = d1 - d6;
  const t2 = d2 + d5,
    t5 = d2 - d5,
    t3 = d3 + d4,
    t4 = d3 - d4;
  // Even part.
  let t10 = t0 + t3;
  const t13 = t0 - t3;
  let t11 = t1 + t2;
  let t12 = t1 - t2;
  data[o] = t10 + t11;
  data[o + 4 * s] = t10 - t11;
  const z1 = (t12 + t13) * 0.707106781;
  data[o + 2 * s] = t13 + z1;
  data[o + 6 * s] = t13 - z1;
  // Odd part.
  t10 = t4 + t5;
  t11 = t5 + t6;
  t12 = t6 + t7;
  const z5 = (t10 - t12) * 0.382683433;
  const z2 = 0.5411961 * t10 + z5;
  const z4 = 1.306562965 * t12 + z5;
  const z3 = t11 * 0.707106781;
  const z11 = t7 + z3;
  const z13 = t7 - z3;
  data[o + 5 * s] = z13 + z2;
  data[o + 3 * s] = z13 - z2;
  data[o + s] = z11 + z4;
  data[o + 7 * s] = z11 - z4;
}

/** A rectangle in pixels (x, y, width, height). */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Quantised coefficients of every block of one picture, in scan order (zigzag within a block). */
export interface PreparedJpeg {
  coefficients: Int16Array;
  /** Entropy-coded AC bits of every block, filled on first reuse. */
  acCache?: { starts: Uint32Array; chunks: BitChunks };
}

/**
 * Huffman output recorded as chunks of at most 24 bits, so coded blocks can be replayed into
 * the stream at any bit position: the AC part of a block does not depend on its neighbours.
 */
class BitChunks {
  values = new Uint32Array(1024);
  lengths = new Uint8Array(1024);
  count = 0;
  private acc = 0;
  private accLength = 0;

  put(bits: number, length: number): void {
    if (this.accLength + length > 24) this.flush();
    this.acc = (this.acc << length) | (bits & ((1 << length) - 1));
    this.accLength += length;
  }

  flush(): void {
    if (this.accLength === 0) return;
    if (this.count === this.values.length) {
      const values = new Uint32Array(this.count * 2);
      values.set(this.values);
      const lengths = new Uint8Array(this.count * 2);
      lengths.set(this.lengths);
      this.values = values;
      this.lengths = lengths;
    }
    this.values[this.count] = this.acc;
    this.lengths[this.count++] = this.accLength;
    this.acc = 0;
    this.accLength = 0;
  }

  reset(): void {
    this.count = 0;
    this.acc = 0;
    this.accLength = 0;
  }
}

const blocksPerMcu = 6; // 4 Y, 1 Cb, 1 Cr

export class JpegEncoder {
  readonly width: number;
  readonly height: number;
  private readonly mcuCols: number;
  private readonly mcuRows: number;
  private readonly quant: [Uint8Array, Uint8Array];
  private readonly divisors: [Float64Array, Float64Array];
  private readonly dc: [ReturnType<typeof huffmanTable>, ReturnType<typeof huffmanTable>];
  private readonly ac: [ReturnType<typeof huffmanTable>, ReturnType<typeof huffmanTable>];
  private readonly header: Uint8Array;
  // Scratch space reused by every call.
  private readonly block = new Float64Array(64);
  private readonly yPlane = new Float64Array(256);
  private readonly cbPlane = new Float64Array(64);
  private readonly crPlane = new Float64Array(64);
  private readonly acScratch = new BitChunks();
  private out: Uint8Array;
  private outPos = 0;
  private bitBuffer = 0;
  private bitCount = 0;

  constructor(width: number, height: number, quality = 80) {
    if (
      !Number.isInteger(width) ||
      !Number.isInteger(height) ||
      width < 1 ||
      height < 1 ||
      width > 65535 ||
      height > 65535
    ) {
      throw new RangeError(`bad JPEG size ${width}x${height}`);
    }
    this.width = width;
    this.height = height;
    this.mcuCols = Math.ceil(width / 16);
    this.mcuRows = Math.ceil(height / 16);
    this.quant = [scaledQuant(lumaQuant, quality), scaledQuant(chromaQuant, quality)];
    this.divisors = [divisors(this.quant[0]), divisors(this.quant[1])];
    this.dc = [huffmanTable(dcLuma), huffmanTable(dcChroma)];
    this.ac = [huffmanTable(acLuma), huffmanTable(acChroma)];
    this.header = this.buildHeader();
    this.out = new Uint8Array(Math.max(4096, width * height));
  }

  private buildHeader(): Uint8Array {
    const bytes: number[] = [];
    const word = (v: number) => bytes.push((v >> 8) & 0xff, v & 0xff);
    word(0xffd8); // SOI
    word(0xffe0); // APP0 JFIF 1.1, no density units
    word(16);
    bytes.push(0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0);
    word(1);
    word(1);
    bytes.push(0, 0);
    word(0xffdb); // DQT: both tables, in zigzag order
    word(2 + 2 * 65);
    this.quant.forEach((table, id) => {
      bytes.push(id);
      for (let k = 0; k < 64; k++) bytes.push(table[zigzag[k]!]!);
    });
    word(0xffc0); // SOF0
    word(17);
    bytes.push(8);
    word(this.height);
    word(this.width);
    bytes.push(3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1);
    const tables: Array<[number, HuffmanSpec]> = [
      [0x00, dcLuma],
      [0x10, acLuma],
      [0x01, dcChroma],
      [0x11, acChroma],
    ];
    word(0xffc4); // DHT
    word(2 + tables.reduce((n, [, t]) => n + 17 + t.values.length, 0));
    for (const [id, t] of tables) bytes.push(id, ...t.bits, ...t.values);
    word(0xffda); // SOS
    word(12);
    bytes.push(3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0);
    return Uint8Array.from(bytes);
  }

  /** Converts a whole RGB picture (3 bytes per pixel, row-major) to quantised blocks. */
  prepare(rgb: Uint8Array): PreparedJpeg {
    this.checkPixels(rgb);
    const coefficients = new Int16Array(this.mcuCols * this.mcuRows * blocksPerMcu * 64);
    this.quantiseMcus(rgb, coefficients, 0, 0, this.mcuCols, this.mcuRows);
    return { coefficients };
  }

  /** Encodes a whole picture. */
  encode(rgb: Uint8Array): Buffer {
    return this.entropyCode(this.prepare(rgb).coefficients, null, null);
  }

  /**
   * Encodes `rgb`, which equals the picture `base` was prepared from except inside `changed`:
   * only the blocks touching those rectangles are transformed again.
   */
  encodeChanged(base: PreparedJpeg, rgb: Uint8Array, changed: PixelRect[], scratch?: Int16Array): Buffer {
    this.checkPixels(rgb);
    const coefficients =
      scratch && scratch.length === base.coefficients.length ? scratch : new Int16Array(base.coefficients.length);
    coefficients.set(base.coefficients);
    const changedMcus = new Uint8Array(this.mcuCols * this.mcuRows);
    for (const r of changed) {
      const x0 = Math.max(0, Math.floor(r.x / 16));
      const y0 = Math.max(0, Math.floor(r.y / 16));
      const x1 = Math.min(this.mcuCols, Math.ceil((r.x + r.width) / 16));
      const y1 = Math.min(this.mcuRows, Math.ceil((r.y + r.height) / 16));
      if (x1 <= x0 || y1 <= y0) continue;
      this.quantiseMcus(rgb, coefficients, x0, y0, x1, y1);
      for (let my = y0; my < y1; my++) changedMcus.fill(1, my * this.mcuCols + x0, my * this.mcuCols + x1);
    }
    base.acCache ??= this.buildAcCache(base.coefficients);
    return this.entropyCode(coefficients, base.acCache, changedMcus);
  }

  private buildAcCache(coefficients: Int16Array): NonNullable<PreparedJpeg['acCache']> {
    const blocks = coefficients.length / 64;
    const starts = new Uint32Array(blocks + 1);
    const chunks = new BitChunks();
    for (let i = 0; i < blocks; i++) {
      starts[i] = chunks.count;
      this.codeAc(coefficients, i * 64, i % blocksPerMcu < 4 ? this.ac[0] : this.ac[1], chunks);
      chunks.flush();
    }
    starts[blocks] = chunks.count;
    return { starts, chunks };
  }

  private checkPixels(rgb: Uint8Array): void {
    if (rgb.length !== this.width * this.height * 3) {
      throw new RangeError(`expected ${this.width * this.height * 3} RGB bytes, got ${rgb.length}`);
    }
  }

  private quantiseMcus(
    rgb: Uint8Array,
    coefficients: Int16Array,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
  ): void {
    const { width, height, yPlane, cbPlane, crPlane } = this;
    for (let my = y0; my < y1; my++) {
      for (let mx = x0; mx < x1; mx++) {
        cbPlane.fill(0);
        crPlane.fill(0);
        // 16x16 pixels, edges repeated past the picture; chroma averaged over 2x2.
        for (let py = 0; py < 16; py++) {
          const sy = Math.min(height - 1, my * 16 + py);
          for (let px = 0; px < 16; px++) {
            const sx = Math.min(width - 1, mx * 16 + px);
            const i = (sy * width + sx) * 3;
            const r = rgb[i]!;
            const g = rgb[i + 1]!;
            const b = rgb[i + 2]!;
            yPlane[py * 16 + px] = 0.299 * r + 0.587 * g + 0.114 * b - 128;
            const c = (py >> 1) * 8 + (px >> 1);
            cbPlane[c]! += 0.25 * (-0.168736 * r - 0.331264 * g + 0.5 * b);
            crPlane[c]! += 0.25 * (0.5 * r - 0.418688 * g - 0.081312 * b);
          }
        }
        const base = (my * this.mcuCols + mx) * blocksPerMcu * 64;
        for (let k = 0; k < 4; k++) {
          const ox = (k & 1) * 8;
          const oy = (k >> 1) * 8;
          for (let y = 0; y < 8; y++)
            for (let x = 0; x < 8; x++) this.block[y * 8 + x] = yPlane[(oy + y) * 16 + ox + x]!;
          this.transform(this.divisors[0], coefficients, base + k * 64);
        }
        this.block.set(cbPlane);
        this.transform(this.divisors[1], coefficients, base + 4 * 64);
        this.block.set(crPlane);
        this.transform(this.divisors[1], coefficients, base + 5 * 64);
      }
    }
  }

  /** 2-D DCT of `this.block`, quantised, stored in zigzag order at `offset`. */
  private transform(divisor: Float64Array, out: Int16Array, offset: number): void {
    const block = this.block;
    for (let row = 0; row < 64; row += 8) dct8(block, row, 1);
    for (let col = 0; col < 8; col++) dct8(block, col, 8);
    for (let k = 0; k < 64; k++) {
      const n = zigzag[k]!;
      out[offset + k] = Math.round(block[n]! / divisor[n]!);
    }
  }

  private entropyCode(
    coefficients: Int16Array,
    cache: PreparedJpeg['acCache'] | null,
    changedMcus: Uint8Array | null,
  ): Buffer {
    this.outPos = 0;
    this.bitBuffer = 0;
    this.bitCount = 0;
    this.ensure(this.header.length);
    this.out.set(this.header, 0);
    this.outPos = this.header.length;
    const dcPred = [0, 0, 0];
    const mcus = this.mcuCols * this.mcuRows;
    const scratch = this.acScratch;
    for (let m = 0; m < mcus; m++) {
      const reuse = cache && changedMcus && !changedMcus[m];
      for (let b = 0; b < blocksPerMcu; b++) {
        const comp = b < 4 ? 0 : b - 3;
        const table = comp === 0 ? 0 : 1;
        const index = m * blocksPerMcu + b;
        const offset = index * 64;
        this.ensure(512); // worst case for one block, with byte stuffing
        const dc = coefficients[offset]!;
        this.writeValue(dc - dcPred[comp]!, this.dc[table], 0, null);
        dcPred[comp] = dc;
        let chunks: BitChunks;
        let from: number;
        let to: number;
        if (reuse) {
          chunks = cache.chunks;
          from = cache.starts[index]!;
          to = cache.starts[index + 1]!;
        } else {
          scratch.reset();
          this.codeAc(coefficients, offset, this.ac[table], scratch);
          scratch.flush();
          chunks = scratch;
          from = 0;
          to = scratch.count;
        }
        for (let k = from; k < to; k++) this.writeBits(chunks.values[k]!, chunks.lengths[k]!);
      }
    }
    if (this.bitCount > 0) this.writeBits((1 << (8 - this.bitCount)) - 1, 8 - this.bitCount); // pad with 1s
    this.ensure(2);
    this.out[this.outPos++] = 0xff;
    this.out[this.outPos++] = 0xd9; // EOI
    return Buffer.from(this.out.subarray(0, this.outPos));
  }

  /** The AC coefficients of one block: (run, size) symbols, ZRL for long zero runs, EOB. */
  private codeAc(c: Int16Array, offset: number, ac: ReturnType<typeof huffmanTable>, sink: BitChunks): void {
    let run = 0;
    for (let k = 1; k < 64; k++) {
      const v = c[offset + k]!;
      if (v === 0) {
        run++;
        continue;
      }
      while (run > 15) {
        sink.put(ac.codes[0xf0]!, ac.sizes[0xf0]!); // ZRL
        run -= 16;
      }
      this.writeValue(v, ac, run, sink);
      run = 0;
    }
    if (run > 0) sink.put(ac.codes[0]!, ac.sizes[0]!); // EOB
  }

  /** Huffman symbol (run, size) then the value's bits (negative values in one's complement). */
  private writeValue(v: number, table: ReturnType<typeof huffmanTable>, run: number, sink: BitChunks | null): void {
    const magnitude = v < 0 ? -v : v;
    let size = 0;
    while (magnitude >> size) size++;
    const symbol = (run << 4) | size;
    const bits = v < 0 ? v + (1 << size) - 1 : v;
    if (sink) {
      sink.put(table.codes[symbol]!, table.sizes[symbol]!);
      if (size) sink.put(bits, size);
    } else {
      this.writeBits(table.codes[symbol]!, table.sizes[symbol]!);
      if (size) this.writeBits(bits, size);
    }
  }

  private writeBits(bits: number, count: number): void {
    this.bitBuffer = ((this.bitBuffer << count) | (bits & ((1 << count) - 1))) >>> 0;
    this.bitCount += count;
    while (this.bitCount >= 8) {
      const byte = (this.bitBuffer >>> (this.bitCount - 8)) & 0xff;
      this.out[this.outPos++] = byte;
      if (byte === 0xff) this.out[this.outPos++] = 0; // byte stuffing
      this.bitCount -= 8;
    }
    this.bitBuffer &= (1 << this.bitCount) - 1;
  }

  private ensure(extra: number): void {
    if (this.outPos + extra <= this.out.length) return;
    const bigger = new Uint8Array(Math.max(this.out.length * 2, this.outPos + extra));
    bigger.set(this.out.subarray(0, this.outPos));
    this.out = bigger;
  }
}
