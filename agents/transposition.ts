import { core, Random } from '../env/index.ts';

const { PITS, TO_MOVE } = core;

/** Seed counts a pit or store can hold: 0..48. */
const COUNTS = core.TOTAL_SEEDS + 1;
/** Squares hashed: the 12 pits and the 2 stores (state bytes 0..13). */
const SQUARES = PITS + 2;

export const BOUND_EXACT = 1;
export const BOUND_LOWER = 2;
export const BOUND_UPPER = 3;
export type Bound = typeof BOUND_EXACT | typeof BOUND_LOWER | typeof BOUND_UPPER;

/**
 * Zobrist keys: one random 64-bit key (two 32-bit halves) per (square, seed
 * count) and one for the side to move. A state's hash is the XOR of its keys; the
 * low half picks the table slot and the high half checks the entry. The keys come
 * from a fixed seed, so hashes agree across runs and threads.
 */
const keysLow = new Int32Array(SQUARES * COUNTS);
const keysHigh = new Int32Array(SQUARES * COUNTS);
const zobristRng = Random.fromSeed('ayoayo-zobrist');
for (let i = 0; i < keysLow.length; i++) {
  keysLow[i] = zobristRng.nextUint32() | 0;
  keysHigh[i] = zobristRng.nextUint32() | 0;
}
const sideLow = zobristRng.nextUint32() | 0;
const sideHigh = zobristRng.nextUint32() | 0;

/** Low 32 bits of a state's Zobrist hash (a signed integer). */
export function zobristLow(s: Uint8Array): number {
  let low = s[TO_MOVE] === 0 ? 0 : sideLow;
  for (let i = 0, k = 0; i < SQUARES; i++, k += COUNTS)
    low ^= keysLow[k + (s[i] as number)] as number;
  return low;
}

/** High 32 bits of a state's Zobrist hash (a signed integer), independent of the low half. */
export function zobristHigh(s: Uint8Array): number {
  let high = s[TO_MOVE] === 0 ? 0 : sideHigh;
  for (let i = 0, k = 0; i < SQUARES; i++, k += COUNTS)
    high ^= keysHigh[k + (s[i] as number)] as number;
  return high;
}

/**
 * A transposition table in flat typed arrays (11 bytes an entry), one entry
 * per slot, always replaced. Relays change many pits at once, so the hash is
 * recomputed per node (14 XORs) rather than updated incrementally.
 *
 * Per node: `hash(state)`, read `hashLow`/`hashHigh` into locals (children
 * overwrite them), then `probe(low, high)` and later `store(low, high, ...)`.
 */
export class TranspositionTable {
  readonly size: number;
  readonly #mask: number;
  readonly #check: Int32Array;
  /** Float64: evaluations from a network are fractional. */
  readonly value: Float64Array;
  readonly depth: Int8Array;
  readonly bound: Uint8Array;
  readonly move: Int8Array;
  /** Low half of the last hash (picks the slot). */
  hashLow = 0;
  /** High half of the last hash (checks the entry). */
  hashHigh = 0;

  /** A table of 2^bits entries. */
  constructor(bits: number) {
    if (!Number.isInteger(bits) || bits < 1 || bits > 26) {
      throw new RangeError(`transposition table bits must be an integer in 1..26, got ${bits}`);
    }
    this.size = 2 ** bits;
    this.#mask = this.size - 1;
    this.#check = new Int32Array(this.size);
    this.value = new Float64Array(this.size);
    this.depth = new Int8Array(this.size);
    this.bound = new Uint8Array(this.size);
    this.move = new Int8Array(this.size);
  }

  /** Hashes a state into `hashLow` / `hashHigh`. */
  hash(s: Uint8Array): void {
    this.hashLow = zobristLow(s);
    this.hashHigh = zobristHigh(s);
  }

  /** The slot holding the hashed state, or -1. */
  probe(low: number, high: number): number {
    const slot = low & this.#mask;
    return this.bound[slot] !== 0 && this.#check[slot] === high ? slot : -1;
  }

  /** Stores a search result for the hashed state. */
  store(low: number, high: number, depth: number, bound: Bound, value: number, move: number): void {
    const slot = low & this.#mask;
    this.#check[slot] = high;
    this.depth[slot] = depth;
    this.bound[slot] = bound;
    this.value[slot] = value;
    this.move[slot] = move;
  }

  clear(): void {
    this.bound.fill(0);
  }
}
