/**
 * The searches of a SearchSelfPlay's games, one per game, stepped together:
 * each step runs one simulation of every game whose search is not done, and
 * their leaves go through the network in one batch. Two implementations play
 * the same games float for float: the WebAssembly search core
 * (core-searches.ts), for the observations it encodes (the
 * lookahead encoder with a counts or thermometer board), and agents/puct's
 * TypeScript searches (typescript-searches.ts) for every other.
 */
import type { PuctResult } from '../../agents/puct/search.ts';
import type { ObservationEncoder } from '../../env/gym/observation.ts';
import type { Rules } from '../../env/index.ts';
import type { RootPlan, SearchTarget } from './targets/index.ts';

export interface SelfPlaySearches {
  /** The step's rows, `encoder.size` floats each: what `selectLeaves` wrote for the network. */
  readonly observations: Float32Array;
  /** Where the network writes its outputs for the step's rows: 6 logits and a value a row. */
  readonly logits: Float32Array;
  readonly values: Float32Array;
  /** Whether game g's search has begun and its move is not played yet. */
  searching(g: number): boolean;
  /** Ends game g's search (its move is played, or the search is dropped to start again). */
  stop(g: number): void;
  /** Forgets game g's trees (a new game). */
  reset(g: number): void;
  /** Begins game g's search of `state` as `plan` says. */
  begin(g: number, state: Uint8Array, plan: RootPlan): void;
  /** Whether game g's search has run its simulations (one is enough once the root is proven). */
  done(g: number): boolean;
  /**
   * One simulation for every searching game whose search is not done, in the
   * games' order; returns the rows of `observations` whose leaves wait for
   * the network.
   */
  selectLeaves(): number;
  /**
   * Expands the waiting leaves with the network's outputs for their rows (in
   * `logits` and `values`) and backs them up; a root expanded here gets its
   * noise or Gumbel's logits.
   */
  completeLeaves(): void;
  /** Game g's search result (after at least the root's expansion). */
  result(g: number): PuctResult;
}

/** Which searches play: the WebAssembly core where it encodes the observation, or TypeScript's. */
export type SearchEngine = 'core' | 'typescript';

/** What the searches of `games` games need to know. */
export interface SearchesSetup {
  readonly games: number;
  readonly rules: Rules;
  readonly simulations: number;
  readonly encoder: ObservationEncoder;
  readonly target: SearchTarget;
  /** The completed-Q target's c_scale (its Gumbel root's). */
  readonly completedQScale: number;
  readonly gumbel: boolean;
}
