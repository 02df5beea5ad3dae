/**
 * Game review: the exact value of every move of a game, from the mover's
 * side, and which moves lost value (docs/solver.md, "Game review"). The values
 * come from an `ExactValues` oracle, so that the review never depends on how
 * they are known: the solver within a budget here (solverExactValues), an
 * opening book and an endgame table where the caller has them. Runs in Node
 * and in the browser page's worker (no Node built-in).
 */
import {
  formatPosition,
  type IllegalReason,
  illegalReason,
  legalActions,
  type Outcome,
  outcome,
  type Player,
  type Position,
  playMove,
  type Rules,
  sameRules,
} from '../env/index.ts';
import type { EndgameValues } from './endgame/build.ts';
import { describeSolution } from './solve.ts';
import { Solver, type StateSolution } from './solver.ts';
import type { GameValue } from './value.ts';

/** What an oracle knows of a position: its value for the mover, and each legal action's. */
export interface MoveValues {
  /** The mover's result under perfect play, or `unknown`. */
  readonly value: GameValue;
  /** Every legal action (any order), with the mover's result if they play it, or `unknown`. */
  readonly moves: readonly { readonly action: number; readonly value: GameValue }[];
}

/**
 * The seam between the review and what knows exact values: given a position
 * that is not over and its rules, the values of the position and of its legal
 * actions. It must never guess: a value it has not proven is `unknown`. The
 * review asks it once per move reviewed, in the game's order.
 */
export type ExactValues = (position: Position, rules: Rules) => MoveValues;

export interface SolverExactValuesOptions {
  /** Milliseconds of search per position; a value not proven in time is `unknown`. */
  readonly budgetMs: number;
  /** The endgame table under `rules` (solve/endgame/cache in Node), or null for none. */
  readonly endgame?: (rules: Rules) => EndgameValues | null;
  /** log2 of the solver's table entries (default 20: 32 MB), kept from one position to the next. */
  readonly tableBits?: number;
}

/**
 * The exact solver as an oracle: every legal action solved within the budget
 * per position. One solver is kept (per rule set in turn), so that what it
 * proved about one position of a game speeds up the next.
 */
export function solverExactValues(options: SolverExactValuesOptions): ExactValues {
  let solver: Solver | null = null;
  return (position, rules) => {
    if (solver === null || !sameRules(solver.rules, rules)) {
      solver = new Solver({
        rules,
        endgame: options.endgame?.(rules) ?? null,
        ...(options.tableBits !== undefined ? { tableBits: options.tableBits } : {}),
      });
    }
    const result = solver.solveState(position.stateView, {
      timeMs: options.budgetMs,
      moves: true,
    });
    return moveValuesOf(position, result);
  };
}

/** A solve's (or the book's) result at `position` as the values an ExactValues answers. */
export function moveValuesOf(position: Position, result: StateSolution): MoveValues {
  const solution = describeSolution(position, result);
  return {
    value: solution.value,
    moves: solution.moves.map((m) => ({ action: m.action, value: m.value })),
  };
}

/** A list of moves that cannot be played: names the ply and what is wrong. */
export class GameMovesError extends Error {
  override name = 'GameMovesError';
}

/** The most moves a list in text may hold (each costs a solve). */
export const MAX_REVIEW_MOVES = 2000;

/**
 * The actions of a comma-separated list (`2,0,5`; spaces around commas are
 * fine). Throws a GameMovesError naming the first entry that is not an action
 * 0..5, with its ply (0 for the first move).
 */
export function parseMoveList(text: string): number[] {
  const words = text.split(',').map((word) => word.trim());
  if (words.length === 1 && words[0] === '') {
    throw new GameMovesError('no moves: expected a comma-separated list of actions 0..5');
  }
  if (words.length > MAX_REVIEW_MOVES) {
    throw new GameMovesError(`${words.length} moves: at most ${MAX_REVIEW_MOVES} are reviewed`);
  }
  return words.map((word, ply) => {
    if (!/^[0-5]$/.test(word)) {
      throw new GameMovesError(
        `the move at ply ${ply} is '${word}': expected an action 0..5 (the mover's pits, left to right)`,
      );
    }
    return Number(word);
  });
}

/** The positions a game goes through: `actions.length + 1` of them, the start first. */
export function gamePositions(
  start: Position,
  actions: readonly number[],
  rules: Rules,
  firstPly = 0,
): Position[] {
  const positions = [start];
  let pos = start;
  for (const [i, action] of actions.entries()) {
    const reason: IllegalReason | null = illegalReason(pos, action, rules);
    if (reason !== null) {
      const ply = firstPly + i;
      const legal = legalActions(pos, rules);
      throw new GameMovesError(
        reason === 'game-over'
          ? `the move at ply ${ply} (action ${action}) comes after the game ended in ${formatPosition(pos)}`
          : `the move at ply ${ply}, action ${action}, is illegal in ${formatPosition(pos)} (${reason.replaceAll('-', ' ')}); legal actions: ${legal.join(', ')}`,
      );
    }
    pos = playMove(pos, action, rules).position;
    positions.push(pos);
  }
  return positions;
}

/** One move of a game, as the review judges it. */
export interface ReviewedMove {
  /** Moves played before it (0 for the game's first, or the first after `firstPly`). */
  readonly ply: number;
  readonly player: Player;
  readonly action: number;
  /** The position it was played in, in notation. */
  readonly position: string;
  /** The position's value for the mover, before the move. */
  readonly before: GameValue;
  /** The value of the move played, for the mover. */
  readonly after: GameValue;
  /** The move lost value (`after` worse than `before`); null where the values cannot tell. */
  readonly error: boolean | null;
  /** The actions that keep `before` (ascending; empty while it is unknown). */
  readonly best: readonly number[];
}

/** One player's moves in a review. */
export interface PlayerReview {
  readonly player: Player;
  readonly moves: number;
  /** Moves that lost value. */
  readonly errors: number;
  /** The ply of the first move that lost value, or null. */
  readonly firstError: number | null;
  /** Moves whose loss of value the values cannot tell (error null). */
  readonly undecided: number;
}

export interface GameReview {
  /** The position the moves start from, in notation. */
  readonly start: string;
  readonly moves: readonly ReviewedMove[];
  /** Player 0's summary, then player 1's. */
  readonly players: readonly [PlayerReview, PlayerReview];
  /** The position after the last move, in notation, and its outcome if the game is over. */
  readonly final: string;
  readonly outcome: Outcome | null;
}

export interface ReviewInput {
  readonly start: Position;
  readonly actions: readonly number[];
  readonly rules: Rules;
  /** The ply of the first move (the moves before `start`: an opening's), for numbering. */
  readonly firstPly?: number;
  /** Reviews only the moves from this ply on (the earlier ones are played, not judged). */
  readonly fromPly?: number;
}

const RANK: Record<Exclude<GameValue, 'unknown'>, number> = { loss: 0, draw: 1, win: 2 };
const FLIP: Record<GameValue, GameValue> = {
  win: 'loss',
  loss: 'win',
  draw: 'draw',
  unknown: 'unknown',
};

/** The value of `pos` for `player` (who may not be the one to move), from the oracle's answer or the outcome. */
function valueFor(player: Player, pos: Position, value: GameValue): GameValue {
  return pos.toMove === player ? value : FLIP[value];
}

function outcomeValue(result: Outcome, player: Player): GameValue {
  return result.winner === null ? 'draw' : result.winner === player ? 'win' : 'loss';
}

/** The position's value for its mover: the oracle's, else what its moves' values imply. */
function positionValue(values: MoveValues): GameValue {
  if (values.value !== 'unknown') return values.value;
  const known = values.moves.map((m) => m.value).filter((v) => v !== 'unknown');
  if (known.includes('win')) return 'win';
  if (known.length === values.moves.length && known.length > 0) {
    return known.reduce((best, v) => (RANK[v] > RANK[best] ? v : best));
  }
  return 'unknown';
}

/** Whether a move worth `after` lost value in a position worth `before`; null where they cannot tell. */
export function lostValue(before: GameValue, after: GameValue): boolean | null {
  // Nothing is worse than a loss, and nothing is better than a win.
  if (before === 'loss' || after === 'win') return false;
  if (before === 'unknown' || after === 'unknown') return null;
  return RANK[after] < RANK[before];
}

/**
 * Reviews a game: for each move, the position's value for the mover before
 * it, the value of the move played, whether it lost value, and the moves that
 * keep the position's value. A move's value is the oracle's, else the next
 * position's (for the mover); a move that ends the game is worth its result.
 * Throws a GameMovesError for a move that cannot be played. `onMove` hears of
 * each move reviewed (for a progress bar).
 */
export function reviewGame(
  input: ReviewInput,
  values: ExactValues,
  onMove?: (done: number, total: number) => void,
): GameReview {
  const { start, actions, rules } = input;
  const firstPly = input.firstPly ?? 0;
  const fromPly = input.fromPly ?? firstPly;
  const positions = gamePositions(start, actions, rules, firstPly);
  const judged = actions.map((_, i) => firstPly + i >= fromPly);
  const total = judged.filter(Boolean).length;
  // Each judged position's values, and the next one's for the value of the move that led to it.
  const asked: (MoveValues | null)[] = positions.map(() => null);
  const ask = (i: number): MoveValues | null => {
    const pos = positions[i] as Position;
    if (outcome(pos, rules) !== null) return null;
    asked[i] ??= values(pos, rules);
    return asked[i];
  };
  const moves: ReviewedMove[] = [];
  let done = 0;
  for (const [i, action] of actions.entries()) {
    if (!judged[i]) continue;
    const pos = positions[i] as Position;
    const next = positions[i + 1] as Position;
    const player = pos.toMove;
    const here = ask(i) as MoveValues;
    let before = positionValue(here);
    let after = here.moves.find((m) => m.action === action)?.value ?? 'unknown';
    if (after === 'unknown') {
      const ended = outcome(next, rules);
      if (ended !== null) after = outcomeValue(ended, player);
      else after = valueFor(player, next, positionValue(ask(i + 1) as MoveValues));
    }
    // A move that wins shows the position was won.
    if (before === 'unknown' && after === 'win') before = 'win';
    const best =
      before === 'unknown'
        ? []
        : legalActions(pos, rules).filter(
            (a) =>
              before === 'loss' ||
              (a === action ? after : here.moves.find((m) => m.action === a)?.value) === before,
          );
    moves.push({
      ply: firstPly + i,
      player,
      action,
      position: formatPosition(pos),
      before,
      after,
      error: lostValue(before, after),
      best,
    });
    onMove?.(++done, total);
  }
  const last = positions.at(-1) as Position;
  return {
    start: formatPosition(start),
    moves,
    players: [summarize(moves, 0), summarize(moves, 1)],
    final: formatPosition(last),
    outcome: outcome(last, rules),
  };
}

function summarize(moves: readonly ReviewedMove[], player: Player): PlayerReview {
  const own = moves.filter((m) => m.player === player);
  const errors = own.filter((m) => m.error === true);
  return {
    player,
    moves: own.length,
    errors: errors.length,
    firstError: errors[0]?.ply ?? null,
    undecided: own.filter((m) => m.error === null).length,
  };
}
