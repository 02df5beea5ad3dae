/** Entries per bucket: a probe looks at both, a store replaces the one worth less. */
const WAYS = 2;
/**
 * 32-bit words per entry: the whole 16-byte state (4 words), then the bounds,
 * move and work (1 word), then the four failed depths (1 word), then padding,
 * so that a bucket is one 64-byte cache line.
 */
const STRIDE = 8;
const INFO = 4;
const FAILED = 5;
/**
 * The info word: bits 0-1 hi + 1, bits 2-3 lo + 1, bits 4-6 move + 1, bit 7
 * set in every entry in use (so that no used entry reads 0), bits 8-15 work.
 */
const USED = 0x80;
export const DEFAULT_TABLE_BITS = 20;
export const MAX_TABLE_BITS = 26;

/** The index of the question "is the value at least t?" (t = 0, 1), to prove or to disprove. */
export function question(t: number, prove: boolean): number {
  return prove ? t : 2 + t;
}

/**
 * The solver's transposition table: for each state it remembers what has been
 * proven about it and how deep a search failed to prove more.
 *
 * - `lo`/`hi`: proven bounds on the mover's value (see value.ts). They are facts
 *   about the game, true whatever depth found them, so they are never aged out
 *   by depth, only by replacement.
 * - `failedDepth(question)`: the deepest search that failed to prove, or to
 *   disprove, "is the value at least t?" (t = 0, 1): four questions in all
 *   (`question(t, prove)`). A later search of the same question at that depth
 *   or less would fail again, so it is skipped.
 * - `move`: the action to try first (the proving one, or the defender's refutation).
 * - `work`: log2 of the nodes the entry cost, so replacement keeps costly ones.
 *
 * One Int32Array, 32 bytes an entry, two entries a bucket (one cache line).
 * Each entry keeps its whole state, compared on every probe, so collisions
 * cost a miss, never a wrong answer; and since every stored fact is proven,
 * results never depend on the table's size, only speed does.
 */
export class ProofTable {
  /** Entries in all. */
  readonly size: number;
  readonly #bucketMask: number;
  readonly #data: Int32Array;

  /** A table of 2^bits entries (bits in 1..26; 32 bytes an entry). */
  constructor(bits: number = DEFAULT_TABLE_BITS) {
    if (!Number.isInteger(bits) || bits < 1 || bits > MAX_TABLE_BITS) {
      throw new RangeError(
        `table bits must be an integer in 1..${MAX_TABLE_BITS}, got ${String(bits)}`,
      );
    }
    this.size = 2 ** bits;
    this.#bucketMask = this.size / WAYS - 1;
    this.#data = new Int32Array(this.size * STRIDE);
  }

  /** Forgets everything. */
  clear(): void {
    this.#data.fill(0);
  }

  /**
   * The entry holding the state at `words[at..at+3]` (its hash from
   * stateHash), as an offset for the accessors below; -1 if absent.
   */
  find(words: Int32Array, at: number, hash: number): number {
    const data = this.#data;
    const w0 = words[at] as number;
    const w1 = words[at + 1] as number;
    const w2 = words[at + 2] as number;
    const w3 = words[at + 3] as number;
    let e = (hash & this.#bucketMask) * WAYS * STRIDE;
    for (let way = 0; way < WAYS; way++, e += STRIDE) {
      if (
        data[e + INFO] !== 0 &&
        data[e] === w0 &&
        data[e + 1] === w1 &&
        data[e + 2] === w2 &&
        data[e + 3] === w3
      ) {
        return e;
      }
    }
    return -1;
  }

  /** Proven lower bound of the entry. */
  lo(e: number): number {
    return (((this.#data[e + INFO] as number) >> 2) & 3) - 1;
  }

  /** Proven upper bound of the entry. */
  hi(e: number): number {
    return ((this.#data[e + INFO] as number) & 3) - 1;
  }

  /** The action to try first, or -1. */
  move(e: number): number {
    return (((this.#data[e + INFO] as number) >> 4) & 7) - 1;
  }

  /** The deepest search that failed on `question` (see `question`; 0 if none). */
  failedDepth(e: number, question: number): number {
    return ((this.#data[e + FAILED] as number) >>> (question * 8)) & 0xff;
  }

  /**
   * Records proven bounds of a state, intersected with those known. A state
   * new to the table replaces the bucket's cheaper entry. Returns the entry,
   * for `fail` and `setMove`.
   */
  store(words: Int32Array, at: number, hash: number, lo: number, hi: number, work: number): number {
    const data = this.#data;
    let e = this.find(words, at, hash);
    if (e >= 0) {
      const info = data[e + INFO] as number;
      const oldLo = ((info >> 2) & 3) - 1;
      const oldHi = (info & 3) - 1;
      if (oldLo > lo) lo = oldLo;
      if (oldHi < hi) hi = oldHi;
      const oldWork = (info >>> 8) & 0xff;
      data[e + INFO] = (Math.max(work, oldWork) << 8) | (info & 0xf0) | ((lo + 1) << 2) | (hi + 1);
      return e;
    }
    e = this.#claim(hash, work);
    data[e] = words[at] as number;
    data[e + 1] = words[at + 1] as number;
    data[e + 2] = words[at + 2] as number;
    data[e + 3] = words[at + 3] as number;
    // Move field 0: no move (it holds move + 1).
    data[e + INFO] = (work << 8) | USED | ((lo + 1) << 2) | (hi + 1);
    data[e + FAILED] = 0;
    return e;
  }

  /** Records that a search of `depth` plies failed on `question` (entry from `store`). */
  fail(e: number, question: number, depth: number): void {
    const failed = this.#data[e + FAILED] as number;
    const shift = question * 8;
    if (((failed >>> shift) & 0xff) < depth) {
      this.#data[e + FAILED] = (failed & ~(0xff << shift)) | (depth << shift);
    }
  }

  /** Records the action to try first in the entry's state. */
  setMove(e: number, move: number): void {
    const info = this.#data[e + INFO] as number;
    this.#data[e + INFO] = (info & ~0x70) | ((move + 1) << 4);
  }

  /** An entry of the hash's bucket for a new state: the first way keeps the costlier one. */
  #claim(hash: number, work: number): number {
    const data = this.#data;
    const first = (hash & this.#bucketMask) * WAYS * STRIDE;
    if (data[first + INFO] === 0) return first;
    const second = first + STRIDE;
    if (data[second + INFO] === 0 || work < (((data[first + INFO] as number) >>> 8) & 0xff)) {
      return second;
    }
    data.copyWithin(second, first, first + STRIDE);
    return first;
  }
}
