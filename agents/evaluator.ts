import { core } from '../env/index.ts';

const { ACTIONS, POPCOUNT, STATE_SIZE, STORE_0, TO_MOVE } = core;

/**
 * What a tree search asks of the positions it reaches: prior probabilities of
 * the six actions and a value (OpenSpiel's split of the search from the leaf
 * evaluator). Positions come in batches, so that an evaluator whose cost per
 * call dominates (a network run through tfjs) can evaluate many at once. The
 * search scores finished games itself, so an evaluator only sees unfinished
 * positions.
 */
export interface Evaluator {
  /**
   * For each i < count, with the engine state (see core.ts) at
   * `states[i * 16 ..]` and its legal actions as the bit mask `masks[i]`: writes
   * the prior of each action into `priors[i * 6 ..]` (summing to 1 over the
   * mask's bits, exactly 0 elsewhere) and the state's value for its player to
   * move, in [-1, 1] (+1: that player wins), into `values[i]`.
   */
  evaluate(
    states: Uint8Array,
    masks: Uint8Array,
    count: number,
    priors: Float32Array,
    values: Float64Array,
  ): void;
}

/** Writes uniform priors over the bits of `mask` into `priors[offset ..]`. */
export function uniformPriors(mask: number, priors: Float32Array, offset = 0): void {
  const share = 1 / (POPCOUNT[mask] as number);
  for (let a = 0; a < ACTIONS; a++) priors[offset + a] = mask & (1 << a) ? share : 0;
}

/**
 * Uniform priors and the store difference as the value (scaled by `scale`
 * seeds, clipped to [-1, 1]): the search without any learned knowledge, for
 * tests and for measuring the search's own speed.
 */
export class StoreDifferenceEvaluator implements Evaluator {
  constructor(readonly scale = 24) {}

  evaluate(
    states: Uint8Array,
    masks: Uint8Array,
    count: number,
    priors: Float32Array,
    values: Float64Array,
  ): void {
    for (let i = 0; i < count; i++) {
      uniformPriors(masks[i] as number, priors, i * ACTIONS);
      const s = i * STATE_SIZE;
      const mover = states[s + TO_MOVE] as number;
      const diff =
        (states[s + STORE_0 + mover] as number) - (states[s + STORE_0 + 1 - mover] as number);
      values[i] = Math.max(-1, Math.min(1, diff / this.scale));
    }
  }
}
