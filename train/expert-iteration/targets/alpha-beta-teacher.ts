import { MinimaxSearch } from '../../../agents/minimax-search.ts';
import type { Rules } from '../../../env/index.ts';
import { NUM_ACTIONS } from '../../../models/mlp-runner.ts';

/**
 * Bits of the teacher's transposition table: 2^16 entries (under 1 MB a
 * shard), enough for the few thousand nodes of a depth-8 to depth-12 search.
 */
const TABLE_BITS = 16;

/**
 * Alpha-beta as the improvement operator: a fixed-depth negamax on the store
 * difference (agents/minimax-search.ts) teaches the policy instead of the
 * network's search, its target uniform over the moves of the best value.
 * Depth 8 errs in about 8% of the accuracy benchmark's positions and depth
 * 12 in about 6%, where a 16-simulation search with the shipped network errs
 * in about 12%.
 *
 * The depth, not a time limit, bounds each search, so the targets are the
 * same on any machine at any load; and a fixed-depth search's result depends
 * on the position and the depth alone (the table changes its speed only), so
 * they do not depend on which positions the teacher saw before either.
 */
export class AlphaBetaTeacher {
  readonly #search: MinimaxSearch;
  readonly #depth: number;

  constructor(rules: Rules, depth: number) {
    if (!(Number.isInteger(depth) && depth >= 1)) {
      throw new RangeError(
        `the alpha-beta teacher's depth must be a positive whole number of plies, got ${depth}`,
      );
    }
    this.#search = new MinimaxSearch({ rules, ttBits: TABLE_BITS });
    this.#depth = depth;
  }

  /**
   * Writes the policy target of `state` (a position with a legal move) into
   * `policy[offset .. offset + NUM_ACTIONS)`: 1/k on each of the k actions of
   * the best value at the teacher's depth, 0 elsewhere.
   */
  teach(state: Uint8Array, policy: Float32Array, offset: number): void {
    const { bestActions } = this.#search.search(state, { depth: this.#depth });
    policy.fill(0, offset, offset + NUM_ACTIONS);
    const share = 1 / bestActions.length;
    for (const a of bestActions) policy[offset + a] = share;
  }
}
