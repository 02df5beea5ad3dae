import type { Evaluator } from './evaluator.ts';
import { zobristHigh, zobristLow } from './transposition.ts';

const ACTIONS = 6;

/**
 * Remembers an evaluator's answers by Zobrist hash in a fixed table (one entry
 * per slot, always replaced). A search without tree reuse meets the positions
 * of its previous move's tree again, and transpositions within a tree; a
 * network evaluation costs as much as hundreds of minimax nodes, so a hit pays.
 * Exact: a hit returns what the evaluator returned for that state (the 64-bit
 * hash is checked in full).
 */
export class CachedEvaluator implements Evaluator {
  readonly #inner: Evaluator;
  readonly #mask: number;
  readonly #low: Int32Array;
  readonly #high: Int32Array;
  readonly #used: Uint8Array;
  readonly #values: Float64Array;
  readonly #priors: Float32Array;
  hits = 0;
  misses = 0;

  /** A cache of 2^bits entries (36 bytes each) in front of `inner`. */
  constructor(inner: Evaluator, bits = 16) {
    if (!Number.isInteger(bits) || bits < 1 || bits > 24) {
      throw new RangeError(`evaluation cache bits must be an integer in 1..24, got ${bits}`);
    }
    this.#inner = inner;
    const size = 2 ** bits;
    this.#mask = size - 1;
    this.#low = new Int32Array(size);
    this.#high = new Int32Array(size);
    this.#used = new Uint8Array(size);
    this.#values = new Float64Array(size);
    this.#priors = new Float32Array(size * ACTIONS);
  }

  evaluate(state: Uint8Array, mask: number, priors: Float32Array): number {
    const low = zobristLow(state);
    const high = zobristHigh(state);
    const slot = low & this.#mask;
    const at = slot * ACTIONS;
    if (this.#used[slot] === 1 && this.#low[slot] === low && this.#high[slot] === high) {
      this.hits++;
      for (let a = 0; a < ACTIONS; a++) priors[a] = this.#priors[at + a] as number;
      return this.#values[slot] as number;
    }
    this.misses++;
    const value = this.#inner.evaluate(state, mask, priors);
    this.#used[slot] = 1;
    this.#low[slot] = low;
    this.#high[slot] = high;
    this.#values[slot] = value;
    for (let a = 0; a < ACTIONS; a++) this.#priors[at + a] = priors[a] as number;
    return value;
  }

  /** Forgets every entry. */
  clear(): void {
    this.#used.fill(0);
  }
}
