/**
 * The project's one seeded random generator: sfc32, seeded through splitmix32.
 * Small, fast in hot loops, and its whole state is four integers, so checkpoints
 * can save and restore it exactly.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  private constructor(state: readonly number[]) {
    this.a = (state[0] ?? 0) | 0;
    this.b = (state[1] ?? 0) | 0;
    this.c = (state[2] ?? 0) | 0;
    this.d = (state[3] ?? 1) | 0;
  }

  /**
   * A generator for a seed; the same seed always gives the same stream. A
   * number seed must be a safe integer: every one of them, negative or beyond
   * 2^32, gets a stream of its own.
   */
  static fromSeed(seed: number | string): Random {
    if (typeof seed === 'number' && !Number.isSafeInteger(seed)) {
      throw new RangeError(`seed must be ${SEED_RANGE}, got ${String(seed)}`);
    }
    let h = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
    const next = (): number => {
      h = (h + 0x9e3779b9) | 0;
      let z = h;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) | 0;
    };
    // The seed's bits above the low 32 go into a word of the state, which the
    // low 32 alone would leave 2^32 apart seeds (and -1 and 2^32 - 1) sharing
    // one stream; seeds 0 .. 2^32 - 1 keep the streams they always had.
    const high = typeof seed === 'number' ? Math.floor(seed / 4294967296) : 0;
    const rng = new Random([next(), next() ^ mixHigh(high), next(), next()]);
    for (let i = 0; i < 12; i++) rng.nextUint32();
    return rng;
  }

  static fromState(state: readonly number[]): Random {
    if (state.length !== 4 || !state.every((x) => Number.isInteger(x))) {
      throw new Error(`random state must be 4 integers, got ${JSON.stringify(state)}`);
    }
    return new Random(state);
  }

  getState(): number[] {
    return [this.a, this.b, this.c, this.d];
  }

  clone(): Random {
    return new Random(this.getState());
  }

  /** An independent generator derived from this one's next output and a label. */
  fork(label: number | string = 0): Random {
    return Random.fromSeed(`${this.nextUint32()}:${label}`);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('cannot pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  /** A standard normal sample (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/** What a number seed may be, for messages: the integers a double holds exactly. */
export const SEED_RANGE = 'an integer between -(2^53 - 1) and 2^53 - 1';

/**
 * The high part of a number seed (-2^21 .. 2^21) mixed into a word: 0 for 0,
 * so that seeds below 2^32 keep their streams, and nonzero for every other
 * high part a safe integer has (checked over the whole range).
 */
function mixHigh(high: number): number {
  if (high === 0) return 0;
  let z = Math.imul(high ^ 0x5bd1e995, 0x9e3779b1);
  z = Math.imul(z ^ (z >>> 15), 0x85ebca6b);
  return (z ^ (z >>> 13)) | 0;
}

function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

// Samplers of the distributions the search and the trainer draw from, each
// from a generator passed in, so that the same seed gives the same draws.

/** A Gamma(alpha, 1) sample (Marsaglia and Tsang; boosted for alpha < 1). */
export function sampleGamma(rng: Random, alpha: number): number {
  if (alpha < 1) return sampleGamma(rng, alpha + 1) * (1 - rng.next()) ** (1 / alpha);
  const d = alpha - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = rng.normal();
    const v = (1 + c * x) ** 3;
    if (v <= 0) continue;
    const u = 1 - rng.next();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/**
 * A symmetric Dirichlet(alpha) sample of `out.length` components, into `out`:
 * Gamma(alpha) draws normalised (uniform should every draw underflow to 0).
 */
export function sampleDirichlet(rng: Random, alpha: number, out: Float64Array): Float64Array {
  const count = out.length;
  let sum = 0;
  for (let i = 0; i < count; i++) {
    out[i] = sampleGamma(rng, alpha);
    sum += out[i] as number;
  }
  for (let i = 0; i < count; i++) out[i] = sum > 0 ? (out[i] as number) / sum : 1 / count;
  return out;
}

/** A standard Gumbel sample, -log(-log u). */
export function sampleGumbel(rng: Random): number {
  // 1 - next() lies in (0, 1]; its log is finite, and -log(1) = 0 is mapped away from log(0).
  const u = 1 - rng.next();
  return -Math.log(-Math.log(u === 1 ? 1 - Number.EPSILON : u));
}

/**
 * An index drawn with the given probabilities (summing to 1; entries <= 0 are
 * never drawn). Should rounding leave the draw past the last positive entry,
 * that entry is returned; -1 if none is positive.
 */
export function sampleIndex(rng: Random, probabilities: ArrayLike<number>): number {
  let u = rng.next();
  let last = -1;
  for (let i = 0; i < probabilities.length; i++) {
    const p = probabilities[i] as number;
    if (p <= 0) continue;
    last = i;
    u -= p;
    if (u < 0) return i;
  }
  return last;
}
