import { core, type Rules, ruleCode } from '../../env/index.ts';
import { boardsOf, MAX_RANKED_SEEDS, MOVER_1_ORDER, rankBoard, unrankBoard } from './rank.ts';

const { ACTIONS, OK, STATE_SIZE, STORE_0, finalScores, playInPlace } = core;

/**
 * The version of what a table holds: written into its file, which code of
 * another version builds again. Bump it with any change to buildEndgame or to
 * the engine's moves that changes a table's contents:
 * test/solve/endgame-version.test.ts pins small tables of each version.
 */
export const ENDGAME_VERSION = 1;

/** A margin the mover cannot force at all (only endless play avoids worse): below every real margin. */
export const NO_LOWER = -127;
/** A margin the opponent cannot hold the mover to: above every real margin. */
export const NO_UPPER = 127;

/** The values of every board of up to `maxSeeds` seeds, for the player to move (see buildEndgame). */
export interface EndgameValues {
  readonly maxSeeds: number;
  /** The rules it was built under. */
  readonly rules: Rules;
  /** offsets[n]: the index of the first board of n seeds (n = 0 .. maxSeeds + 1). */
  readonly offsets: Float64Array;
  readonly lo: Int8Array;
  readonly hi: Int8Array;
}

/** The index of the first board of each seed count, 0 .. maxSeeds + 1. */
export function endgameOffsets(maxSeeds: number): Float64Array {
  const offsets = new Float64Array(maxSeeds + 2);
  for (let n = 0; n <= maxSeeds; n++) offsets[n + 1] = (offsets[n] as number) + boardsOf(n);
  return offsets;
}

/**
 * Every board of up to `maxSeeds` seeds, solved by fixed-point iteration:
 * for the player to move (the board read from their own row), the margin of
 * seeds they will gain over the opponent from here to the end of the game,
 * as two bounds. `lo` is what the mover can force by ending the game, `hi`
 * what the opponent can hold them to by ending it (NO_LOWER / NO_UPPER when
 * the side cannot force an end at all), so a line that never ends counts
 * against whoever needs it, as in the search; where lo = hi the board's
 * margin is exact.
 *
 * Stores do not change what is legal, so a board's margin does not depend on
 * them; the table plays on past a store of 25 (it cannot see the stores), so
 * its bounds are sound for the real game but can be looser where the game
 * would have stopped (docs/solver.md).
 *
 * Layer by layer from 0 seeds up: a capture leads to a smaller layer, already
 * solved; within a layer the bounds start at "nothing forced" and tighten.
 * Rounds over the layer evaluate only the boards marked (at first all): a
 * board whose bounds change marks the boards that move to it, until a round
 * changes nothing. That is the least fixed point, as sweeping the whole layer
 * again and again would give, for about four evaluations a board instead of
 * twenty-odd sweeps.
 */
export function buildEndgame(
  maxSeeds: number,
  rules: Rules,
  onProgress?: (boardsDone: number, boardsTotal: number) => void,
): EndgameValues {
  if (!Number.isInteger(maxSeeds) || maxSeeds < 0 || maxSeeds > MAX_RANKED_SEEDS) {
    throw new RangeError(
      `endgame seeds must be an integer in 0..${MAX_RANKED_SEEDS}, got ${maxSeeds}`,
    );
  }
  const offsets = endgameOffsets(maxSeeds);
  const total = offsets[maxSeeds + 1] as number;
  const lo = new Int8Array(total);
  const hi = new Int8Array(total);
  for (let n = 0; n <= maxSeeds; n++) {
    solveLayer(n, offsets, lo, hi, rules, (done) => onProgress?.(done, total));
    onProgress?.(offsets[n + 1] as number, total);
  }
  return {
    maxSeeds,
    rules,
    offsets,
    lo,
    hi,
  };
}

/** Boards between two progress reports. */
const PROGRESS_BOARDS = 1 << 16;

/**
 * Solves the boards of `n` seeds, those of fewer seeds being solved; reports
 * the boards whose moves it has played (the first half of the work).
 */
function solveLayer(
  n: number,
  offsets: Float64Array,
  lo: Int8Array,
  hi: Int8Array,
  rules: Rules,
  report: (boardsDone: number) => void,
): void {
  const count = boardsOf(n);
  const base = offsets[n] as number;
  const code = ruleCode(rules);
  const scores = new Int32Array(2);
  const board = new Uint8Array(STATE_SIZE);
  const work = new Uint8Array(STATE_SIZE);
  // Moves within the layer (no capture): the child's rank in the layer, -1 for none.
  const next = new Int32Array(count * ACTIONS).fill(-1);
  // The best bounds through a capture (children already solved), or "none".
  const captureLo = new Int8Array(count).fill(NO_LOWER);
  const captureHi = new Int8Array(count).fill(NO_LOWER);
  const parents = new Int32Array(count + 1);
  const open = new Uint8Array(count);
  for (let r = 0; r < count; r++) {
    if ((r & (PROGRESS_BOARDS - 1)) === PROGRESS_BOARDS - 1) report(base + r);
    unrankBoard(r, n, board);
    let legal = 0;
    for (let a = 0; a < ACTIONS; a++) {
      if (board[a] === 0) continue;
      work.set(board);
      if (playInPlace(work, a, code) !== OK) continue;
      legal++;
      const captured = work[STORE_0] as number;
      const left = n - captured;
      const child = rankBoard(work, 0, MOVER_1_ORDER, left);
      if (captured === 0) {
        next[r * ACTIONS + a] = child;
        parents[child + 1] = (parents[child + 1] as number) + 1;
        continue;
      }
      const c = (offsets[left] as number) + child;
      const mineLo = hi[c] === NO_UPPER ? NO_LOWER : captured - (hi[c] as number);
      const mineHi = lo[c] === NO_LOWER ? NO_UPPER : captured - (lo[c] as number);
      if (mineLo > (captureLo[r] as number)) captureLo[r] = mineLo;
      if (mineHi > (captureHi[r] as number)) captureHi[r] = mineHi;
    }
    if (legal === 0) {
      // The mover cannot move: the engine's final scores of the board (its stores are empty).
      finalScores(board, 0, code, scores);
      const margin = (scores[0] as number) - (scores[1] as number);
      lo[base + r] = margin;
      hi[base + r] = margin;
    } else {
      open[r] = 1;
      lo[base + r] = NO_LOWER;
      hi[base + r] = NO_UPPER;
    }
  }
  // Who moves to each board within the layer, for putting them back on the list.
  for (let r = 0; r < count; r++)
    parents[r + 1] = (parents[r + 1] as number) + (parents[r] as number);
  const from = new Int32Array(parents[count] as number);
  const filled = parents.slice(0, count);
  for (let r = 0; r < count; r++) {
    for (let a = 0; a < ACTIONS; a++) {
      const child = next[r * ACTIONS + a] as number;
      if (child < 0) continue;
      const k = filled[child] as number;
      from[k] = r;
      filled[child] = k + 1;
    }
  }
  // Both bounds of each board of the layer in one 16-bit word (lo high, hi
  // low), so that reading a child costs one memory access.
  const bounds = new Int16Array(count);
  for (let r = 0; r < count; r++) {
    bounds[r] = ((lo[base + r] as number) << 8) | ((hi[base + r] as number) & 0xff);
  }
  // Rounds over the boards in order, each evaluating those marked; a board
  // whose bounds change marks the boards that move to it.
  const marked = open.slice();
  for (let any = true; any; ) {
    any = false;
    for (let r = 0; r < count; r++) {
      if (marked[r] === 0) continue;
      marked[r] = 0;
      let l = captureLo[r] as number;
      let h = captureHi[r] as number;
      for (let a = 0; a < ACTIONS; a++) {
        const child = next[r * ACTIONS + a] as number;
        if (child < 0) continue;
        const b = bounds[child] as number;
        const cl = b >> 8;
        const ch = (b << 24) >> 24;
        const mineLo = ch === NO_UPPER ? NO_LOWER : -ch;
        const mineHi = cl === NO_LOWER ? NO_UPPER : -cl;
        if (mineLo > l) l = mineLo;
        if (mineHi > h) h = mineHi;
      }
      const b = (l << 8) | (h & 0xff);
      if (b === bounds[r]) continue;
      bounds[r] = b;
      any = true;
      for (let k = parents[r] as number; k < (parents[r + 1] as number); k++) {
        const p = from[k] as number;
        if (open[p] !== 0) marked[p] = 1;
      }
    }
  }
  for (let r = 0; r < count; r++) {
    const b = bounds[r] as number;
    lo[base + r] = b >> 8;
    hi[base + r] = (b << 24) >> 24;
  }
}
