/**
 * Seeded randomness for the generated demo data: the same seed gives the same navigation and
 * pictures on every machine and every start, so reloading the demo is idempotent.
 */

/** FNV-1a hash of a string to 32 bits. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, fast PRNG with a 32-bit state; uniform in [0, 1). */
export function seededRandom(seed: number | string): () => number {
  let state = (typeof seed === 'string' ? hashString(seed) : seed) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal samples from a uniform source (Box-Muller). */
export function gaussian(random: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = 1 - random();
    const v = random();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

/**
 * An Ornstein-Uhlenbeck process: a smooth random wander around 0 with stationary standard
 * deviation `sigma` and correlation time `tau` seconds.
 */
export class Wander {
  value: number;
  constructor(
    private readonly normal: () => number,
    public sigma: number,
    private readonly tau: number,
    initial = 0,
  ) {
    this.value = initial;
  }

  step(dt: number): number {
    const a = Math.exp(-dt / this.tau);
    this.value = this.value * a + this.sigma * Math.sqrt(1 - a * a) * this.normal();
    return this.value;
  }
}
