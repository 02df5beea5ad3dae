import { core } from '../env/index.ts';

const { ACTIONS, STORE_0, TO_MOVE } = core;

/**
 * What a tree search asks of a position it reaches: prior probabilities of the
 * six actions and a value (OpenSpiel's split of the search from the leaf
 * evaluator). The search itself scores finished games exactly, so an evaluator
 * only ever sees unfinished positions.
 */
export interface Evaluator {
  /**
   * Writes the prior of each action into `priors` (length 6, summing to 1 over
   * the bits of `mask`, exactly 0 elsewhere) and returns the value of `state`
   * for its player to move, in [-1, 1] (+1: that player wins). `state` is an
   * unfinished engine state (see core.ts) and `mask` its legal actions.
   */
  evaluate(state: Uint8Array, mask: number, priors: Float32Array): number;
}

/** Writes uniform priors over the bits of `mask` into `priors`. */
export function uniformPriors(mask: number, priors: Float32Array): void {
  const share = 1 / (core.POPCOUNT[mask] as number);
  for (let a = 0; a < ACTIONS; a++) priors[a] = mask & (1 << a) ? share : 0;
}

/**
 * Uniform priors and the store difference as the value (scaled by `scale`
 * seeds, clipped to [-1, 1]): the search without any learned knowledge, for
 * tests and for measuring the search's own speed.
 */
export class StoreDifferenceEvaluator implements Evaluator {
  constructor(readonly scale = 24) {}

  evaluate(state: Uint8Array, mask: number, priors: Float32Array): number {
    uniformPriors(mask, priors);
    const mover = state[TO_MOVE] as number;
    const diff = (state[STORE_0 + mover] as number) - (state[STORE_0 + 1 - mover] as number);
    return Math.max(-1, Math.min(1, diff / this.scale));
  }
}
