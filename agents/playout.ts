import { core, type RuleCode } from '../env/index.ts';
import type { Random } from '../env/random.ts';

const { OK, POPCOUNT, hasWinningStore, nthAction, occupiedMask, playInPlace } = core;

/**
 * Plays the game in `state` to its end, uniformly at random over the legal
 * actions, in place, with full legality checks: a pit is drawn uniformly among
 * the candidates not yet ruled out and played; an illegal one (which leaves the
 * state as it was) is struck and another drawn (rejection sampling, which is
 * uniform over the legal actions). When every candidate is struck the mover has
 * no legal move and the game is over. Returns the number of plies played;
 * afterwards `core.finalScores(state, 0, ...)` gives the result. Allocates nothing.
 */
export function randomPlayout(state: Uint8Array, rng: Random, code: RuleCode): number {
  let plies = 0;
  for (;;) {
    if (hasWinningStore(state)) return plies;
    let candidates = occupiedMask(state);
    for (;;) {
      if (candidates === 0) return plies;
      const action = nthAction(candidates, rng.int(POPCOUNT[candidates] as number));
      if (playInPlace(state, action, code) === OK) break;
      candidates &= ~(1 << action);
    }
    plies++;
  }
}
