/**
 * Allocation-free helpers on the engine's fast path that the environment needs
 * beyond `core`: an exact "can the player to move move at all?" test that
 * usually avoids playing a move, and terminal-state scoring.
 */
import { core } from '../index.ts';

const { OK, PITS, TO_MOVE, playInPlace, rowIsEmpty } = core;

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
  const oppBase = 6 - base;
  const opponentHasSeeds = !rowIsEmpty(s, oppBase);
  for (let a = 0; a < 6; a++) {
    const seeds = s[base + a] as number;
    if (seeds === 0) continue;
    if (opponentHasSeeds && seeds < PITS) {
      const end = (base + a + seeds) % PITS;
      if (s[end] === 0) return true;
    }
  }
  for (let a = 0; a < 6; a++) {
    if (s[base + a] === 0) continue;
    probe.set(s);
    if (playInPlace(probe, a, captureSeedStays) === OK) return true;
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
