import type { PuctOptions, PuctResult, PuctSearch } from '../../../agents/puct/search.ts';
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
 * How expert iteration searches each self-play move and what the network
 * learns from the search: the pluggable part of its self-play. One instance
 * serves all games of a SearchSelfPlay, each game with its own PuctSearch,
 * which the self-play steps one simulation at a time and batches with the
 * other games' leaves.
 */
export interface SearchTarget {
  /** What the searches need besides the rules (visit counts: Dirichlet root noise). */
  readonly searchOptions: Pick<PuctOptions, 'rootNoise'>;
  /**
   * Starts game `game`'s search of `state`, which runs `simulations`
   * simulations after the root's expansion (a move's full or cheap search).
   */
  begin(
    game: number,
    search: PuctSearch,
    state: Uint8Array,
    simulations: number,
    rng: Random,
  ): void;
  /** Game `game`'s move from its finished search, after `searchedMoves` moves of the game. */
  finish(game: number, result: PuctResult, searchedMoves: number, rng: Random): SearchedMove;
}
