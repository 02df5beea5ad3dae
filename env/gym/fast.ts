/**
 * Allocation-free helpers on the engine's fast path that the environment needs
 * beyond `core`: an exact "can the player to move move at all?" test that
 * usually avoids playing a move, and terminal-state scoring.
 */
import { core } from '../index.ts';

const { OK, PITS, TO_MOVE, playFrom, rowIsEmpty } = core;

/**
 * True if the player to move in `s` has at least one legal action. `s` must
 * not hold a winning store (check `core.hasWinningStore` first). `probe` is a
 * STATE_SIZE scratch buffer.
 *
 * A pit of n < 12 seeds whose first lap ends in an empty pit ends the move
 * after that one lap, so it cannot relay forever; and when the opponent's row
 * holds seeds the feeding rule cannot apply. Such a pit proves a legal move
 * without playing it; anything else is decided by playing on `probe`.
 */
export function hasLegalMove(s: Uint8Array, captureSeedStays: boolean, probe: Uint8Array): boolean {
  const base = (s[TO_MOVE] as number) * 6;
  if (!rowIsEmpty(s, 6 - base)) {
    // Without branches (they would be mispredicted about every other pit): the
    // sign bit of `proof` is set once a pit holds 1..11 seeds and its lap ends
    // in an empty pit. Pits of 12 or more seeds are masked out, so `end` need
    // only stay inside the state.
    let proof = 0;
    for (let a = 0; a < 6; a++) {
      const seeds = s[base + a] as number;
      const last = base + a + seeds;
      const end = (last - (PITS & ((PITS - 1 - last) >> 31))) & 15;
      proof |= (((seeds - 1) & 255) - (PITS - 1)) & ((s[end] as number) - 1);
    }
    if (proof < 0) return true;
  }
  for (let a = 0; a < 6; a++) {
    if (s[base + a] !== 0 && playFrom(s, 0, probe, 0, a, captureSeedStays) === OK) return true;
  }
  return false;
}

/**
 * Final (mover - opponent) score difference of a finished game, from the side
 * of `player`. `s` must be finished (a winning store, or no legal move for the
 * player to move); `scores` is a scratch pair.
 */
export function finalDifference(
  s: Uint8Array,
  player: number,
  leftoverToOwner: boolean,
  scores: Int32Array,
): number {
  core.finalScores(s, 0, leftoverToOwner, scores);
  return (scores[player] as number) - (scores[1 - player] as number);
}
