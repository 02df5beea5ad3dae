import { core, type RuleCode, type Rules, ruleCode } from '../../env/index.ts';
import type { Evaluator } from '../evaluator.ts';
import type { LeafEvaluator } from '../minimax-search.ts';

const { STORE_0, TO_MOVE } = core;

/**
 * The horizon evaluation of alpha-beta with a value network: store difference
 * + k x value (seeds; docs/calibration.md found k = 8..16 best at equal
 * depth). The value lies in [-1, 1], so when the store difference alone is k
 * or more outside the search window the network cannot change the cutoff and
 * is not asked (the returned bound is then exact enough for alpha-beta).
 */
export class NetworkLeafEvaluator implements LeafEvaluator {
  readonly #evaluator: Evaluator;
  readonly #k: number;
  readonly #ruleCode: RuleCode;
  readonly #state = new Uint8Array(16);
  readonly #mask = new Uint8Array(1);
  readonly #priors = new Float32Array(6);
  readonly #value = new Float64Array(1);
  /** Leaves the window settled without the network. */
  skipped = 0;

  constructor(evaluator: Evaluator, k: number, rules: Rules) {
    this.#evaluator = evaluator;
    this.#k = k;
    this.#ruleCode = ruleCode(rules);
  }

  evaluate(state: Uint8Array, alpha: number, beta: number): number {
    const mover = state[TO_MOVE] as number;
    const diff = (state[STORE_0 + mover] as number) - (state[STORE_0 + 1 - mover] as number);
    const k = this.#k;
    if (k === 0) return diff;
    if (diff + k <= alpha) {
      this.skipped++;
      return diff + k;
    }
    if (diff - k >= beta) {
      this.skipped++;
      return diff - k;
    }
    // Only the value is used; the evaluator's contract asks for the legal mask all the same.
    this.#mask[0] = core.legalMask(state, this.#ruleCode);
    this.#state.set(state.subarray(0, 16));
    this.#evaluator.evaluate(this.#state, this.#mask, 1, this.#priors, this.#value);
    return diff + k * (this.#value[0] as number);
  }
}
