import type { GumbelRoot } from '../../../agents/puct/gumbel.ts';
import type { PuctOptions, PuctResult } from '../../../agents/puct/search.ts';
import type { Random } from '../../../env/random.ts';

/** The move a finished search plays, and what the network learns at its position. */
export interface SearchedMove {
  readonly action: number;
  /** The policy target over the six actions (0 on illegal ones). */
  readonly policy: Float64Array;
  /** The search's value of the position for the player to move (mixed into the value target). */
  readonly value: number;
}

/**
 * How a move's search runs at its root: Gumbel's Sequential Halving
 * (`gumbel`), or PUCT with the Dirichlet noise of the target's
 * `searchOptions` drawn from `noise` once the root is expanded.
 */
export interface RootPlan {
  readonly gumbel: GumbelRoot | null;
  readonly noise: Random | null;
}

/**
 * How expert iteration searches each self-play move and what the network
 * learns from the search: the pluggable part of its self-play. One instance
 * serves all games of a SearchSelfPlay, whose searches (self-play-searches.ts)
 * it steps one simulation at a time, batching the games' leaves.
 */
export interface SearchTarget {
  /** What the searches need besides the rules (visit counts: Dirichlet root noise). */
  readonly searchOptions: Pick<PuctOptions, 'rootNoise'>;
  /**
   * Plans game `game`'s next search, which runs `simulations` simulations
   * after the root's expansion (a move's full or cheap search).
   */
  begin(game: number, simulations: number, rng: Random): RootPlan;
  /** Game `game`'s move from its finished search, after `searchedMoves` moves of the game. */
  finish(game: number, result: PuctResult, searchedMoves: number, rng: Random): SearchedMove;
}
