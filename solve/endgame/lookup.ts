import { core } from '../../env/index.ts';
import { signValue } from '../value.ts';
import { type EndgameValues, NO_LOWER, NO_UPPER } from './build.ts';
import { MOVER_0_ORDER, MOVER_1_ORDER, rankBoard } from './rank.ts';

const { STORE_0, TO_MOVE, TOTAL_SEEDS } = core;

/** What the endgame table proves of a position: bounds on the mover's value (-1..1). */
export interface EndgameBounds {
  readonly lo: number;
  readonly hi: number;
}

/**
 * The bounds the endgame table gives the value of the state (an engine
 * state, game not over) for its player to move: the board's margin bounds
 * plus the stores' difference, as the search reads them. Null when the board
 * holds more seeds than the table.
 */
export function endgameBounds(endgame: EndgameValues, s: Uint8Array): EndgameBounds | null {
  const mover = s[TO_MOVE] as number;
  const own = s[STORE_0 + mover] as number;
  const opp = s[STORE_0 + 1 - mover] as number;
  const seeds = TOTAL_SEEDS - own - opp;
  if (seeds > endgame.maxSeeds) return null;
  const i =
    (endgame.offsets[seeds] as number) +
    rankBoard(s, 0, mover === 0 ? MOVER_0_ORDER : MOVER_1_ORDER, seeds);
  const marginLo = endgame.lo[i] as number;
  const marginHi = endgame.hi[i] as number;
  return {
    lo: marginLo === NO_LOWER ? -1 : signValue(own - opp + marginLo),
    hi: marginHi === NO_UPPER ? 1 : signValue(own - opp + marginHi),
  };
}
