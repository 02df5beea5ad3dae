/**
 * The engine's fast path, for search and self-play.
 *
 * A game state is a `Uint8Array(STATE_SIZE)`: pits 0..11 in sowing order, then the
 * two stores and the player to move. Everything here works in place on such
 * buffers and allocates nothing per move. The public, validated API
 * (`position`, `applyAction`, ...) is built on top of it in `game.ts`.
 */

export const PITS = 12;
export const STORE_0 = 12;
export const STORE_1 = 13;
export const TO_MOVE = 14;
/** Bytes per state; 16 rather than 15 so that batches of states stay aligned. */
export const STATE_SIZE = 16;
export const ACTIONS = 6;
export const TOTAL_SEEDS = 48;
export const WINNING_STORE = 25;

/** Status codes of a move attempt, in the order the rules report them. */
export const OK = 0;
export const GAME_OVER = 1;
export const EMPTY_PIT = 2;
export const ENDLESS_RELAY = 3;
export const DOES_NOT_FEED = 4;
export type MoveStatus = 0 | 1 | 2 | 3 | 4;

/** Per-move facts, filled in by `playInPlace` when one is passed (reused, not allocated). */
export class MoveStats {
  laps = 0;
  seedsSown = 0;
  /** The pit where the last seed of the last lap landed. */
  endPit = -1;
  /** Seeds moved into the mover's store (the capturing seed included unless it stays). */
  captured = 0;
  /** The pit captured from, or -1. */
  capturedPit = -1;
}

/** Called after each lap with the pit lifted, its seed count and where the lap ended. */
export type LapListener = (from: number, seeds: number, end: number, state: Uint8Array) => void;

/** True when the row starting at `base` (0 or 6) holds no seeds. */
export function rowIsEmpty(s: Uint8Array, base: number): boolean {
  return (
    ((s[base] as number) |
      (s[base + 1] as number) |
      (s[base + 2] as number) |
      (s[base + 3] as number) |
      (s[base + 4] as number) |
      (s[base + 5] as number)) ===
    0
  );
}

// Brent's cycle detection keeps one saved lap start, so memory stays constant
// however long a relay runs, and a repeated lap start is found exactly.
const savedBoard = new Uint8Array(PITS);

/**
 * Plays `action` for the player to move, in place. Returns OK or why the move is
 * illegal; after an illegal result the buffer holds garbage, so callers that need
 * the position again play on a copy (see `playInto`).
 */
export function playInPlace(
  s: Uint8Array,
  action: number,
  captureSeedStays: boolean,
  stats: MoveStats | null = null,
  onLap: LapListener | null = null,
): MoveStatus {
  const mover = s[TO_MOVE] as number;
  const base = mover * 6;
  let pit = base + action;
  let seeds = s[pit] as number;
  if (seeds === 0) return EMPTY_PIT;
  const oppBase = 6 - base;
  const opponentWasEmpty = rowIsEmpty(s, oppBase);

  for (let i = 0; i < PITS; i++) savedBoard[i] = s[i] as number;
  let savedPit = pit;
  let power = 1;
  let sinceSave = 0;
  let laps = 0;
  let sown = 0;
  let end: number;

  for (;;) {
    s[pit] = 0;
    laps++;
    sown += seeds;
    end = pit;
    if (seeds < PITS) {
      for (let k = 0; k < seeds; k++) {
        end = end === 11 ? 0 : end + 1;
        s[end] = (s[end] as number) + 1;
      }
    } else {
      // Whole rounds put one seed in each of the 11 other pits; the lap skips its origin.
      const rounds = (seeds / 11) | 0;
      const rest = seeds - rounds * 11;
      for (let i = 0; i < PITS; i++) s[i] = (s[i] as number) + rounds;
      s[pit] = 0;
      if (rest === 0) {
        end = pit === 0 ? 11 : pit - 1;
      } else {
        for (let k = 0; k < rest; k++) {
          end = end === 11 ? 0 : end + 1;
          s[end] = (s[end] as number) + 1;
        }
      }
    }
    if (onLap !== null) onLap(pit, seeds, end, s);
    seeds = s[end] as number;
    if (seeds === 1) break;
    pit = end;
    if (pit === savedPit && sameBoard(s)) return ENDLESS_RELAY;
    if (++sinceSave === power) {
      for (let i = 0; i < PITS; i++) savedBoard[i] = s[i] as number;
      savedPit = pit;
      power <<= 1;
      sinceSave = 0;
    }
  }

  let captured = 0;
  let capturedPit = -1;
  if (end >= base && end < base + 6) {
    const facing = 11 - end;
    const facingSeeds = s[facing] as number;
    if (facingSeeds > 0) {
      s[facing] = 0;
      captured = facingSeeds;
      if (!captureSeedStays) {
        s[end] = 0;
        captured++;
      }
      s[STORE_0 + mover] = (s[STORE_0 + mover] as number) + captured;
      capturedPit = facing;
    }
  }
  if (opponentWasEmpty && rowIsEmpty(s, oppBase)) {
    return DOES_NOT_FEED;
  }
  s[TO_MOVE] = 1 - mover;
  if (stats !== null) {
    stats.laps = laps;
    stats.seedsSown = sown;
    stats.endPit = end;
    stats.captured = captured;
    stats.capturedPit = capturedPit;
  }
  return OK;
}

function sameBoard(s: Uint8Array): boolean {
  for (let i = 0; i < PITS; i++) if (s[i] !== savedBoard[i]) return false;
  return true;
}

/** True once a store holds 25 or more seeds (the game then ends at once). */
export function hasWinningStore(s: Uint8Array): boolean {
  return (s[STORE_0] as number) >= WINNING_STORE || (s[STORE_1] as number) >= WINNING_STORE;
}

/** Copies `src` into `dst` (a state-sized view) and plays `action` there. */
export function playInto(
  src: Uint8Array,
  dst: Uint8Array,
  action: number,
  captureSeedStays: boolean,
  stats: MoveStats | null = null,
): MoveStatus {
  if (hasWinningStore(src)) return GAME_OVER;
  dst.set(src);
  return playInPlace(dst, action, captureSeedStays, stats);
}

/**
 * Plays every action of the position into `children` (ACTIONS * STATE_SIZE bytes,
 * child a at offset a * STATE_SIZE) and writes each action's status; returns a
 * bit mask of the legal actions. This is legal-move generation and move making in
 * one pass: search and the environment's lookahead reuse the children.
 */
export function expand(
  s: Uint8Array,
  captureSeedStays: boolean,
  children: Uint8Array,
  status: Uint8Array,
): number {
  if (hasWinningStore(s)) {
    status.fill(GAME_OVER);
    return 0;
  }
  let mask = 0;
  const base = (s[TO_MOVE] as number) * 6;
  const views = childViews(children);
  for (let a = 0; a < ACTIONS; a++) {
    if (s[base + a] === 0) {
      status[a] = EMPTY_PIT;
      continue;
    }
    const child = views[a] as Uint8Array;
    child.set(s);
    const st = playInPlace(child, a, captureSeedStays);
    status[a] = st;
    if (st === OK) mask |= 1 << a;
  }
  return mask;
}

// Views of each child slot, made once per children buffer so that expand
// allocates nothing when called again with the same buffer.
const viewCache = new WeakMap<Uint8Array, Uint8Array[]>();

function childViews(children: Uint8Array): Uint8Array[] {
  let views = viewCache.get(children);
  if (views === undefined) {
    views = Array.from({ length: ACTIONS }, (_, a) =>
      children.subarray(a * STATE_SIZE, (a + 1) * STATE_SIZE),
    );
    viewCache.set(children, views);
  }
  return views;
}

const probe = new Uint8Array(STATE_SIZE);

/** Bit mask of the legal actions (0 when the game is over). */
export function legalMask(s: Uint8Array, captureSeedStays: boolean): number {
  if (hasWinningStore(s)) return 0;
  let mask = 0;
  const base = (s[TO_MOVE] as number) * 6;
  for (let a = 0; a < ACTIONS; a++) {
    if (s[base + a] === 0) continue;
    probe.set(s);
    if (playInPlace(probe, a, captureSeedStays) === OK) mask |= 1 << a;
  }
  return mask;
}

/**
 * Final scores of a finished game, into `scores` (length 2). `mask` is the
 * position's legal mask (0 when finished). Returns false while the game goes on.
 */
export function finalScores(
  s: Uint8Array,
  mask: number,
  leftoverToOwner: boolean,
  scores: Int32Array | number[],
): boolean {
  const s0 = s[STORE_0] as number;
  const s1 = s[STORE_1] as number;
  if (s0 >= WINNING_STORE || s1 >= WINNING_STORE) {
    scores[0] = s0;
    scores[1] = s1;
    return true;
  }
  if (mask !== 0) return false;
  let row0 = 0;
  let row1 = 0;
  for (let i = 0; i < 6; i++) {
    row0 += s[i] as number;
    row1 += s[i + 6] as number;
  }
  if (leftoverToOwner) {
    scores[0] = s0 + row0;
    scores[1] = s1 + row1;
  } else if (s[TO_MOVE] === 0) {
    // The player who cannot move (0) gets nothing; the last mover takes the board.
    scores[0] = s0;
    scores[1] = s1 + row0 + row1;
  } else {
    scores[0] = s0 + row0 + row1;
    scores[1] = s1;
  }
  return true;
}

/** Writes the start position into `s`. */
export function setInitial(s: Uint8Array): Uint8Array {
  s.fill(0);
  for (let i = 0; i < PITS; i++) s[i] = 4;
  return s;
}

/** Counts of bits set in a 6-bit mask, for picking among legal actions. */
export const POPCOUNT: Uint8Array = Uint8Array.from({ length: 64 }, (_, m) => {
  let c = 0;
  for (let x = m; x !== 0; x &= x - 1) c++;
  return c;
});

/** The index of the k-th set bit of a 6-bit mask (k from 0). */
export function nthAction(mask: number, k: number): number {
  let m = mask;
  for (let i = 0; i < k; i++) m &= m - 1;
  return 31 - Math.clz32(m & -m);
}
