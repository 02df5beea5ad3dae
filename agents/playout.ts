import { core } from '../env/index.ts';
import type { Random } from '../env/random.ts';

const { ACTIONS, OK, POPCOUNT, TO_MOVE, hasWinningStore, nthAction, playInPlace } = core;

/**
 * Plays the game in `state` to its end, uniformly at random over the legal
 * actions, in place, with full legality checks: a pit is drawn uniformly among
 * the candidates not yet ruled out and played on `scratch`; an illegal one is
 * struck and another drawn (rejection sampling, which is uniform over the legal
 * actions). When every candidate is struck the mover has no legal move and the
 * game is over. Returns the number of plies played; afterwards
 * `core.finalScores(state, 0, ...)` gives the result. Allocates nothing.
 */
export function randomPlayout(
  state: Uint8Array,
  scratch: Uint8Array,
  rng: Random,
  captureSeedStays: boolean,
): number {
  let plies = 0;
  for (;;) {
    if (hasWinningStore(state)) return plies;
    const base = (state[TO_MOVE] as number) * 6;
    let candidates = 0;
    for (let a = 0; a < ACTIONS; a++) if (state[base + a] !== 0) candidates |= 1 << a;
    let played = false;
    while (candidates !== 0) {
      const action = nthAction(candidates, rng.int(POPCOUNT[candidates] as number));
      scratch.set(state);
      if (playInPlace(scratch, action, captureSeedStays) === OK) {
        state.set(scratch);
        played = true;
        break;
      }
      candidates &= ~(1 << action);
    }
    if (!played) return plies;
    plies++;
  }
}
