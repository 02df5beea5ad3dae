import {
  applyAction,
  core,
  legalActions,
  outcome,
  type Position,
  position,
  Random,
  type Rules,
  ruleCode,
} from '../../env/index.ts';
import { buildEndgame, type EndgameValues, NO_LOWER, NO_UPPER } from './build.ts';
import { EndgameFileError } from './file.ts';
import { boardsOf, MOVER_1_ORDER, PITS, rankBoard, unrankBoard } from './rank.ts';

/** The seed of the sample checkEndgame draws by default. */
export const DEFAULT_CHECK_SEED = 1;
/** Boards of each seed count that checkEndgame checks against their moves by default. */
export const DEFAULT_CHECK_SAMPLES = 32;
/** The boards of up to this many seeds (50 388) are built again and compared whole. */
const REBUILT_SEEDS = 7;

export interface EndgameCheckOptions {
  /** Seed of the sample of boards checked against their moves. */
  readonly seed?: number;
  /** Boards of each seed count checked against their moves. */
  readonly samples?: number;
}

/**
 * Checks, cheaply, that a table read from a file holds what buildEndgame
 * would build under its rules, and throws EndgameFileError naming the first
 * check it fails. A checksum only shows that the bytes are those written; a
 * table written wrong (by other code, or rewritten by hand with a new
 * checksum) would make the solver prove wrong values. So, in about 0.2 s
 * for 16 seeds:
 *
 * - every bound is a margin a board of its seeds can have (-n..n, of n's
 *   parity, since the n seeds all end in a store) or "none", and lo <= hi;
 * - every board whose mover cannot move holds the margin the engine's
 *   `outcome` gives it (both families: the mover's row empty, the
 *   opponent's row empty and no move feeding it);
 * - the boards of up to 7 seeds are those of a fresh build;
 * - a seeded sample of boards of every seed count holds the bounds their
 *   moves give them, each move played by the engine and its child looked up
 *   in the table (the table is a fixed point of that, so each is exact).
 */
export function checkEndgame(values: EndgameValues, options: EndgameCheckOptions = {}): void {
  const rules = values.rules;
  checkRanges(values);
  checkEnds(values, rules);
  checkRebuilt(values, rules);
  checkSample(
    values,
    rules,
    Random.fromSeed(options.seed ?? DEFAULT_CHECK_SEED),
    options.samples ?? DEFAULT_CHECK_SAMPLES,
  );
}

function fail(check: string, what: string): never {
  throw new EndgameFileError(`the endgame table fails its ${check} check: ${what}`);
}

/** A board as the mover sees it, in the notation's order: their row, then the opponent's. */
function boardText(pits: ArrayLike<number>): string {
  const row = (from: number) => Array.from({ length: 6 }, (_, i) => pits[from + i]).join(',');
  return `${row(0)}/${row(6)}`;
}

/** The board at `index` of the table, of `seeds` seeds, as messages name it. */
function boardAt(values: EndgameValues, seeds: number, index: number): string {
  const pits = new Uint8Array(PITS);
  unrankBoard(index - (values.offsets[seeds] as number), seeds, pits);
  return `board ${boardText(pits)} (${seeds} seeds)`;
}

function boundsText(lo: number, hi: number): string {
  return `${lo === NO_LOWER ? 'none' : lo}..${hi === NO_UPPER ? 'none' : hi}`;
}

/** Each bound a margin of its board's seeds (or none), lo <= hi: one pass over the table. */
function checkRanges(values: EndgameValues): void {
  const { lo, hi, offsets } = values;
  // By a bound's byte: whether it may be a lo (bit 1) or a hi (bit 2) of the layer.
  const allowed = new Uint8Array(256);
  for (let n = 0; n <= values.maxSeeds; n++) {
    allowed.fill(0);
    for (let m = -n; m <= n; m += 2) allowed[m & 0xff] = 3;
    allowed[NO_LOWER & 0xff] = 1;
    allowed[NO_UPPER & 0xff] = 2;
    const end = offsets[n + 1] as number;
    for (let i = offsets[n] as number; i < end; i++) {
      const l = lo[i] as number;
      const h = hi[i] as number;
      if (((allowed[l & 0xff] as number) & 1) === 0 || ((allowed[h & 0xff] as number) & 2) === 0) {
        fail(
          'range',
          `${boardAt(values, n, i)} holds ${l}..${h}, not margins in -${n}..${n} of ${n}'s parity`,
        );
      }
      if (l > h) fail('bound order', `${boardAt(values, n, i)} holds lo ${l} above hi ${h}`);
    }
  }
}

/** The position of a board of `seeds` seeds, player 0 to move, the stores short of 25. */
function positionOf(pits: Uint8Array, seeds: number): Position {
  const mine = 24 - Math.ceil(seeds / 2);
  return position({ pits, stores: [mine, 48 - seeds - mine], toMove: 0 });
}

/** The table's bounds of a board read from the mover's row first. */
function boundsOf(values: EndgameValues, pos: Position, seeds: number, order?: Uint8Array) {
  const state = pos.toState();
  const i = (values.offsets[seeds] as number) + rankBoard(state, 0, order ?? IDENTITY, seeds);
  return { i, lo: values.lo[i] as number, hi: values.hi[i] as number };
}

const IDENTITY = Uint8Array.from({ length: PITS }, (_, i) => i);

/** Calls `visit` with every board of `seeds` seeds, all of them in the six pits from `from`. */
function forRowBoards(seeds: number, from: number, visit: (pits: Uint8Array) => void): void {
  const pits = new Uint8Array(PITS);
  const put = (pit: number, left: number): void => {
    if (pit === from + 5) {
      pits[pit] = left;
      visit(pits);
      return;
    }
    for (let c = left; c >= 0; c--) {
      pits[pit] = c;
      put(pit + 1, left - c);
    }
  };
  put(from, seeds);
}

/** The margin the engine's outcome gives a board whose mover cannot move (null if the game goes on). */
function endMargin(pos: Position, rules: Rules): number | null {
  const over = outcome(pos, rules);
  if (over === null) return null;
  const [mine, theirs] = pos.stores as readonly [number, number];
  return over.scores[0] - mine - (over.scores[1] - theirs);
}

function failEnd(board: string, seeds: number, lo: number, hi: number, margin: number): never {
  fail(
    'end-of-game',
    `board ${board} (${seeds} seeds), where the mover cannot move, holds ${boundsText(lo, hi)}; the engine's outcome gives ${margin}`,
  );
}

/**
 * Every board of the two families where the mover may be unable to move (one
 * row empty) that the engine ends holds the margin of its final scores: the
 * engine's `outcome` on a reused state (150 000 boards for 16 seeds).
 */
function checkEnds(values: EndgameValues, rules: Rules): void {
  const state = new Uint8Array(core.STATE_SIZE);
  const scores = [0, 0];
  const code = ruleCode(rules);
  for (let n = 0; n <= values.maxSeeds; n++) {
    const mine = 24 - Math.ceil(n / 2);
    for (const from of [0, 6]) {
      forRowBoards(n, from, (pits) => {
        state.set(pits);
        state[core.STORE_0] = mine;
        state[core.STORE_1] = 48 - n - mine;
        state[core.TO_MOVE] = 0;
        const mask = core.legalMask(state, code);
        if (mask !== 0 || !core.finalScores(state, mask, code, scores)) return;
        const margin = (scores[0] as number) - mine - ((scores[1] as number) - (48 - n - mine));
        const i = (values.offsets[n] as number) + rankBoard(state, 0, IDENTITY, n);
        const lo = values.lo[i] as number;
        const hi = values.hi[i] as number;
        if (lo !== margin || hi !== margin) failEnd(boardText(pits), n, lo, hi, margin);
      });
    }
  }
}

/** The boards of up to REBUILT_SEEDS seeds are those a fresh build gives. */
function checkRebuilt(values: EndgameValues, rules: Rules): void {
  const seeds = Math.min(values.maxSeeds, REBUILT_SEEDS);
  const fresh = buildEndgame(seeds, rules);
  for (let i = 0; i < fresh.lo.length; i++) {
    if (values.lo[i] !== fresh.lo[i] || values.hi[i] !== fresh.hi[i]) {
      let n = 0;
      while ((values.offsets[n + 1] as number) <= i) n++;
      fail(
        'rebuild',
        `${boardAt(values, n, i)} holds ${boundsText(values.lo[i] as number, values.hi[i] as number)}; a fresh build gives ${boundsText(fresh.lo[i] as number, fresh.hi[i] as number)}`,
      );
    }
  }
}

/** A seeded sample of boards of each seed count hold the bounds their moves give them. */
function checkSample(values: EndgameValues, rules: Rules, rng: Random, samples: number): void {
  const pits = new Uint8Array(PITS);
  for (let n = 1; n <= values.maxSeeds; n++) {
    const count = boardsOf(n);
    for (let s = 0; s < Math.min(samples, count); s++) {
      unrankBoard(rng.int(count), n, pits);
      const pos = positionOf(pits, n);
      const actions = legalActions(pos, rules);
      if (actions.length === 0) {
        const margin = endMargin(pos, rules);
        const { lo, hi } = boundsOf(values, pos, n);
        if (margin !== null && (lo !== margin || hi !== margin)) {
          failEnd(boardText(pits), n, lo, hi, margin);
        }
        continue;
      }
      let l = NO_LOWER;
      let h = NO_LOWER;
      for (const action of actions) {
        const child = applyAction(pos, action, rules);
        const captured = (child.stores[0] as number) - (pos.stores[0] as number);
        const next = boundsOf(values, child, n - captured, MOVER_1_ORDER);
        l = Math.max(l, next.hi === NO_UPPER ? NO_LOWER : captured - next.hi);
        h = Math.max(h, next.lo === NO_LOWER ? NO_UPPER : captured - next.lo);
      }
      const here = boundsOf(values, pos, n);
      if (here.lo !== l || here.hi !== h) {
        fail(
          'sample',
          `board ${boardText(pits)} (${n} seeds) holds ${boundsText(here.lo, here.hi)}; its moves give ${boundsText(l, h)}`,
        );
      }
    }
  }
}
