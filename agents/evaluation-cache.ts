import { core } from '../env/index.ts';
import type { Evaluator } from './evaluator.ts';
import { zobristHigh, zobristLow } from './transposition.ts';

const { ACTIONS, STATE_SIZE } = core;

/**
 * Remembers an evaluator's answers by Zobrist hash in a fixed table (one entry
 * per slot, always replaced). A search without tree reuse meets the positions
 * of its previous move's tree again, and transpositions within a tree; a
 * network evaluation costs as much as hundreds of minimax nodes, so a hit pays.
 * Exact: a hit returns what the evaluator returned for that state (the 64-bit
 * hash is checked in full). Misses of a batch go to the inner evaluator as one
 * batch.
 */
export class CachedEvaluator implements Evaluator {
  readonly #inner: Evaluator;
  readonly #mask: number;
  readonly #low: Int32Array;
  readonly #high: Int32Array;
  readonly #used: Uint8Array;
  readonly #values: Float64Array;
  readonly #priors: Float32Array;
  #missIndex = new Int32Array(0);
  #missStates = new Uint8Array(0);
  #missMasks = new Uint8Array(0);
  #missPriors = new Float32Array(0);
  #missValues = new Float64Array(0);
  hits = 0;
  misses = 0;

  /** A cache of 2^bits entries (42 bytes each) in front of `inner`. */
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

  evaluate(
    states: Uint8Array,
    masks: Uint8Array,
    count: number,
    priors: Float32Array,
    values: Float64Array,
  ): void {
    this.#ensure(count);
    let misses = 0;
    for (let i = 0; i < count; i++) {
      const state = states.subarray(i * STATE_SIZE, (i + 1) * STATE_SIZE);
      const low = zobristLow(state);
      const slot = low & this.#mask;
      if (
        this.#used[slot] === 1 &&
        this.#low[slot] === low &&
        this.#high[slot] === zobristHigh(state)
      ) {
        this.hits++;
        for (let a = 0; a < ACTIONS; a++) {
          priors[i * ACTIONS + a] = this.#priors[slot * ACTIONS + a] as number;
        }
        values[i] = this.#values[slot] as number;
        continue;
      }
      this.#missIndex[misses] = i;
      this.#missStates.set(state, misses * STATE_SIZE);
      this.#missMasks[misses] = masks[i] as number;
      misses++;
    }
    if (misses === 0) return;
    this.misses += misses;
    this.#inner.evaluate(
      this.#missStates,
      this.#missMasks,
      misses,
      this.#missPriors,
      this.#missValues,
    );
    for (let m = 0; m < misses; m++) {
      const i = this.#missIndex[m] as number;
      const state = this.#missStates.subarray(m * STATE_SIZE, (m + 1) * STATE_SIZE);
      const low = zobristLow(state);
      const slot = low & this.#mask;
      this.#used[slot] = 1;
      this.#low[slot] = low;
      this.#high[slot] = zobristHigh(state);
      this.#values[slot] = this.#missValues[m] as number;
      values[i] = this.#missValues[m] as number;
      for (let a = 0; a < ACTIONS; a++) {
        const p = this.#missPriors[m * ACTIONS + a] as number;
        this.#priors[slot * ACTIONS + a] = p;
        priors[i * ACTIONS + a] = p;
      }
    }
  }

  /** Forgets every entry. */
  clear(): void {
    this.#used.fill(0);
  }

  #ensure(count: number): void {
    if (this.#missIndex.length >= count) return;
    this.#missIndex = new Int32Array(count);
    this.#missStates = new Uint8Array(count * STATE_SIZE);
    this.#missMasks = new Uint8Array(count);
    this.#missPriors = new Float32Array(count * ACTIONS);
    this.#missValues = new Float64Array(count);
  }
}
