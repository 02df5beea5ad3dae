import type { Rules } from '../env/index.ts';
import { bookFirst } from '../solve/book/answer.ts';
import type { OpeningBook } from '../solve/book/book.ts';
import { bookIfAny } from '../solve/book/cache/load-book.ts';
import { cachedEndgame } from '../solve/endgame/cache/shared-tables.ts';
import { DEFAULT_ENDGAME_SEEDS } from '../solve/endgame/cache/table-cache.ts';
import { type EndgameValues, type ExactValues, solverExactValues } from '../solve/index.ts';

/** How long the review's solver may try each position by default (as `ayoayo solve`). */
export const DEFAULT_REVIEW_MS = 10_000;

export interface ReviewOracleOptions {
  /** Milliseconds of search per position (default DEFAULT_REVIEW_MS); a value not proven in time is `unknown`. */
  readonly budgetMs?: number;
  /**
   * The endgame table under the game's rules: by default the solver-backed
   * agents' (DEFAULT_ENDGAME_SEEDS seeds, from the user's cache, once per
   * thread); null for none.
   */
  readonly endgame?: (rules: Rules) => EndgameValues | null;
  /**
   * The opening book under the game's rules, asked first: by default the
   * deepest there is (the package's, the cache's; none is built), null for none.
   */
  readonly book?: (rules: Rules) => OpeningBook | null;
}

/**
 * Where a review in Node (`ayoayo review`, `eval --review`) gets its exact
 * values: the one place to plug in a better oracle (an opening book before
 * the endgame table and the solver) so that every review in Node uses it. Any
 * `ExactValues` fits (solve/review.ts): it answers a position's value and its
 * legal actions' for the mover, `unknown` where it has no proof, never a
 * guess. The opening book where the position is in it, else the solver with
 * the endgame table, within the budget per position, keeping one
 * transposition table from one position to the next.
 */
export function reviewOracle(options: ReviewOracleOptions = {}): ExactValues {
  return bookFirst(
    options.book ?? bookIfAny,
    solverExactValues({
      budgetMs: options.budgetMs ?? DEFAULT_REVIEW_MS,
      endgame: options.endgame ?? ((rules) => cachedEndgame(DEFAULT_ENDGAME_SEEDS, rules)),
    }),
  );
}
