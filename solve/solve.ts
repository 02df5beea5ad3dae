import { formatPosition, type Player, Position, parsePosition } from '../env/index.ts';
import {
  type ResolvedSolveOptions,
  resolveSolveOptions,
  type SolveOptions,
  SolveOptionsError,
} from './options.ts';
import { Solver, type StateSolution } from './solver.ts';
import { type BoundValue, type GameValue, gameValue, valueWord } from './value.ts';

/** One legal action and what it is worth. */
export interface MoveValue {
  readonly action: number;
  /** The pit it lifts (0..11). */
  readonly pit: number;
  /** The mover's result if they play it and both sides then play perfectly. */
  readonly value: GameValue;
  /** Proven bounds on that result (equal when it is known). */
  readonly atLeast: BoundValue;
  readonly atMost: BoundValue;
}

/** What the solver proved about a position, for its player to move. */
export interface Solution {
  /** The position, in notation. */
  readonly position: string;
  readonly toMove: Player;
  /** True for a finished game (its value is its result, and it has no moves). */
  readonly over: boolean;
  /** The mover's result under perfect play, or `unknown` where the budget ran out first. */
  readonly value: GameValue;
  /** Proven bounds on the result: what the mover can force, and what the opponent can hold them to. */
  readonly atLeast: BoundValue;
  readonly atMost: BoundValue;
  /** Every legal action (ascending), with its value. */
  readonly moves: readonly MoveValue[];
  /** The actions proven to keep the position's value (empty while it is unknown). */
  readonly bestActions: readonly number[];
  /** The proof depth in plies (see Solver's StateSolution.depth). */
  readonly depth: number;
  readonly nodes: number;
  readonly timeMs: number;
  /** The value, and with `moves` every action's, are all known. */
  readonly complete: boolean;
  /**
   * The budget ran out. When a solve is neither complete nor out of budget, the
   * deepest search (MAX_DEPTH plies) left something open: its value hangs on
   * endless play, or lies deeper still.
   */
  readonly budgetSpent: boolean;
}

/**
 * The exact value of a position (win, draw or loss for the player to move)
 * and of each of its legal actions, or `unknown` where the budget ran out:
 * proven, never estimated (docs/solver.md). Throws a PositionError for bad
 * notation, a RulesError for bad rules and a SolveOptionsError for other bad
 * options.
 *
 *   solve(parsePosition('0,0,0,0,1,0/1,0,0,1,1,1/20-23/0'))
 *   // { value: 'loss', moves: [{ action: 4, value: 'loss', ... }], ... }
 *
 * Each call makes its own table; to solve many positions, keep one `Solver`
 * (or call `solveAll`), which reuses what it proved.
 */
export function solve(position: Position | string, options?: SolveOptions): Solution {
  const pos = positionArg(position);
  const resolved = resolveSolveOptions(options);
  return solveWith(solverFor(resolved), pos, resolved);
}

/**
 * Solves positions one after another with one solver, so that each solve
 * reuses the table the others filled (a shard of positions for a worker). The
 * budget is per position; `onSolved` hears of each as it is done.
 */
export function solveAll(
  positions: readonly (Position | string)[],
  options?: SolveOptions,
  onSolved?: (solution: Solution, index: number) => void,
): Solution[] {
  const list = positions.map(positionArg);
  const resolved = resolveSolveOptions(options);
  const solver = solverFor(resolved);
  return list.map((pos, i) => {
    const solution = solveWith(solver, pos, resolved);
    onSolved?.(solution, i);
    return solution;
  });
}

function solverFor(options: ResolvedSolveOptions): Solver {
  return new Solver({
    rules: options.rules,
    ...(options.tableBits !== undefined ? { tableBits: options.tableBits } : {}),
    ...(options.endgame !== undefined ? { endgame: options.endgame } : {}),
  });
}

function solveWith(solver: Solver, pos: Position, options: ResolvedSolveOptions): Solution {
  const limits = {
    ...options.budget,
    moves: options.moves,
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
  };
  return describeSolution(pos, solver.solveState(pos.stateView, limits));
}

function positionArg(position: unknown): Position {
  if (typeof position === 'string') return parsePosition(position);
  if (position instanceof Position) return position;
  throw new SolveOptionsError(
    `solve needs a Position or a position in notation, got ${position === null ? 'null' : typeof position}`,
  );
}

/** The fast path's result in words, for the position it was computed for. */
export function describeSolution(pos: Position, result: StateSolution): Solution {
  const moves: MoveValue[] = [];
  const bestActions: number[] = [];
  for (let a = 0; a < 6; a++) {
    if ((result.legalMask & (1 << a)) === 0) continue;
    const lo = result.moveLo[a] as number;
    const hi = result.moveHi[a] as number;
    moves.push({
      action: a,
      pit: pos.toMove * 6 + a,
      value: gameValue(lo, hi),
      atLeast: valueWord(lo),
      atMost: valueWord(hi),
    });
    if ((result.bestMask & (1 << a)) !== 0) bestActions.push(a);
  }
  return {
    position: formatPosition(pos),
    toMove: pos.toMove,
    over: result.legalMask === 0,
    value: gameValue(result.lo, result.hi),
    atLeast: valueWord(result.lo),
    atMost: valueWord(result.hi),
    moves,
    bestActions,
    depth: result.depth,
    nodes: result.nodes,
    timeMs: result.elapsedMs,
    complete: result.complete,
    budgetSpent: result.budgetSpent,
  };
}
