/**
 * Allocation-free helpers on the engine's fast path that the environment needs
 * beyond `core`: an exact "can the player to move move at all?" test that
 * usually avoids playing a move, and terminal-state scoring.
 */
import { core, type RuleCode } from '../index.ts';

const { OK, PITS, TO_MOVE, moveStatus, rowIsEmpty } = core;

/**
 * True if the player to move in `s` has at least one legal action. `s` must
 * not hold a winning store (check `core.hasWinningStore` first).
 *
 * A pit of n < 12 seeds whose first lap ends in an empty pit ends the move
 * after that one lap, so it cannot relay forever; and when the opponent's row
 * holds seeds the feeding rule cannot apply. Such a pit proves a legal move
 * without playing it; anything else is decided by trying the moves.
 */
export function hasLegalMove(s: Uint8Array, code: RuleCode): boolean {
  const base = (s[TO_MOVE] as number) * 6;
  if (
    !rowIsEmpty(s, 6 - base) &&
    // Six calls rather than a loop: straight-line code reads `s` without
    // rechecking it on every pit.
    (firstLapProof(s, base) |
      firstLapProof(s, base + 1) |
      firstLapProof(s, base + 2) |
      firstLapProof(s, base + 3) |
      firstLapProof(s, base + 4) |
      firstLapProof(s, base + 5)) <
      0
  ) {
    return true;
  }
  return tryMoves(s, base, code);
}

/** True if some action of the mover (whose row starts at `base`) is legal, trying them in turn. */
function tryMoves(s: Uint8Array, base: number, code: RuleCode): boolean {
  for (let a = 0; a < 6; a++) {
    if (s[base + a] !== 0 && moveStatus(s, a, code) === OK) return true;
  }
  return false;
}

/**
 * Negative when `pit` holds 1..11 seeds and its first lap ends in an empty pit,
 * which then ends the move: computed without branches, which would be
 * mispredicted about every other pit. For 12 seeds or more the end computed is
 * wrong but masked out, and it stays inside the state.
 */
function firstLapProof(s: Uint8Array, pit: number): number {
  const seeds = s[pit] as number;
  const last = pit + seeds;
  const end = (last - (PITS & ((PITS - 1 - last) >> 31))) & 15;
  return (((seeds - 1) & 255) - (PITS - 1)) & ((s[end] as number) - 1);
}

/**
 * Final (mover - opponent) score difference of a finished game, from the side
 * of `player`. `s` must be finished (a winning store, or no legal move for the
 * player to move); `scores` is a scratch pair.
 */
export function finalDifference(
  s: Uint8Array,
  player: number,
  code: RuleCode,
  scores: Int32Array,
): number {
  core.finalScores(s, 0, code, scores);
  return (scores[player] as number) - (scores[1 - player] as number);
}
