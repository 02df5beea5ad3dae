import type { PuctResult } from '../../../agents/puct/search.ts';
import { visitCountTargets } from '../../../agents/search-targets.ts';
import { type Random, sampleIndex } from '../../../env/random.ts';
import type { RootPlan, SearchedMove, SearchTarget } from './search-target.ts';

/** Searched moves of a game whose action is sampled from the visit counts. */
const SAMPLED_MOVES = 10;
/** Root noise of the visit-count search (AlphaZero's exploration; Gumbel needs none). */
const ROOT_NOISE = { alpha: 1, fraction: 0.25 } as const;

/**
 * AlphaZero's targets: PUCT with Dirichlet noise at the root, the visit
 * counts the policy target; a game's first moves are sampled from them, the
 * later ones (and any from a proven root) are the most visited.
 */
export class VisitCountTarget implements SearchTarget {
  readonly searchOptions = { rootNoise: ROOT_NOISE };

  begin(_game: number, _simulations: number, rng: Random): RootPlan {
    return { gumbel: null, noise: rng };
  }

  finish(_game: number, result: PuctResult, searchedMoves: number, rng: Random): SearchedMove {
    const policy = visitCountTargets(result.visits, result.legalMask, 1);
    const action =
      searchedMoves < SAMPLED_MOVES && !result.solved
        ? sampleIndex(rng, policy)
        : (result.bestActions[0] as number);
    return { action, policy, value: result.value };
  }
}
