import { GumbelRoot } from '../../../agents/puct/gumbel.ts';
import type { PuctResult } from '../../../agents/puct/search.ts';
import type { Random } from '../../../env/random.ts';
import type { RootPlan, SearchedMove, SearchTarget } from './search-target.ts';

/**
 * Gumbel MuZero's root search behind every move: Gumbel noise and Sequential
 * Halving over the root's actions (PUCT below), which explores by itself; the
 * move is Sequential Halving's survivor and the target its completed-Q
 * improved policy, softmax(logits + sigma(completed Q)).
 */
export class CompletedQTarget implements SearchTarget {
  readonly searchOptions = {};
  readonly #roots: (GumbelRoot | null)[];
  readonly #valueScale: number;

  /** `valueScale`: c_scale of sigma(completed Q), how much the search's values sharpen the target. */
  constructor(games: number, valueScale: number) {
    this.#roots = new Array<GumbelRoot | null>(games).fill(null);
    this.#valueScale = valueScale;
  }

  begin(game: number, simulations: number, rng: Random): RootPlan {
    // Sequential Halving plans its phases for the search's budget.
    const root = new GumbelRoot({ simulations, valueScale: this.#valueScale }, rng);
    this.#roots[game] = root;
    return { gumbel: root, noise: null };
  }

  finish(game: number, result: PuctResult): SearchedMove {
    const { action, policy } = (this.#roots[game] as GumbelRoot).finish(result);
    return { action, policy, value: result.value };
  }
}
