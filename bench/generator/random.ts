// Seeded pseudo-random numbers for the data generator: same seed, same data set, on any machine.

/** sfc32: small, fast, statistically solid 32-bit generator (PractRand-clean); Math.random can't be seeded. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d = 1;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next32();
  }

  next32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next32() / 4294967296;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** Exponentially distributed with the given mean. */
  exp(mean: number): number {
    return -mean * Math.log(1 - this.float());
  }

  /** Random lowercase hex string of `len` characters (ids, tokens). */
  hex(len: number): string {
    let s = '';
    while (s.length < len) s += this.next32().toString(16).padStart(8, '0');
    return s.slice(0, len);
  }
}

/** Picks items with given relative weights in O(log n) per draw (binary search over the CDF). */
export class Weighted<T> {
  private readonly cdf: Float64Array;

  constructor(readonly items: readonly T[], weights: readonly number[]) {
    if (items.length === 0 || items.length !== weights.length) throw new Error('Weighted: bad input');
    this.cdf = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((w, i) => (this.cdf[i] = sum += w));
    for (let i = 0; i < this.cdf.length; i++) this.cdf[i]! /= sum;
  }

  /** Zipf's law over `items` in the given order: rank k drawn with weight 1/k^s. */
  static zipf<T>(items: readonly T[], s = 1): Weighted<T> {
    return new Weighted(items, items.map((_, k) => 1 / (k + 1) ** s));
  }

  /** From [item, weight] pairs. */
  static of<T>(pairs: ReadonlyArray<readonly [T, number]>): Weighted<T> {
    return new Weighted(pairs.map((p) => p[0]), pairs.map((p) => p[1]));
  }

  draw(rng: Random): T {
    const u = rng.float();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo]!;
  }
}
