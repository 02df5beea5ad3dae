import {
  applyAction,
  formatPosition,
  legalActions,
  outcome,
  type Player,
  type Position,
  type Rules,
} from '../env/index.ts';
import { type EndgameValues, Solver } from '../solve/index.ts';

/** What checking a winning strategy found. */
export interface StrategyCheck {
  /** Every line of the strategy ended in a win for `winner` under the rules. */
  readonly verified: boolean;
  /** Positions the strategy was checked from (each once). */
  readonly positions: number;
  /** Calls to the solver for the winner's moves. */
  readonly solverCalls: number;
  /** The longest line played, in plies. */
  readonly longestLine: number;
  /** Where the check failed (a position the solver could not prove won, or a line going round). */
  readonly failure: string | null;
}

/**
 * Checks a claimed win by playing it out: from `root`, `winner` plays the
 * move the solver proves winning, the other side plays every legal move, and
 * every line must reach the end of the game (env's `outcome`) won by
 * `winner`; a line that comes back to a position on it fails. The solver only
 * suggests the winner's moves, so the check stands on the engine's rules and
 * this enumeration, not on the solver's search or its endgame table.
 *
 * Each of the winner's positions is solved with a fresh table, so the move
 * named is one proven at the shallowest depth the deepening tries, and the
 * strategy makes progress toward the end: always playing *some* winning
 * move can go round for ever in a game with cycles (each position on the
 * cycle is won, the cycle is not). The endgame table's answers have no depth,
 * so it serves only while more than its seeds are on the board; below, a
 * table-free solver picks the moves. Recursive: lines are at most a few
 * hundred plies.
 */
export function checkWinningStrategy(
  root: Position,
  winner: Player,
  rules: Rules,
  endgame?: EndgameValues,
): StrategyCheck {
  const withTable = new Solver({ rules, tableBits: 20, ...(endgame ? { endgame } : {}) });
  const plain = new Solver({ rules, tableBits: 16 });
  const won = new Set<string>();
  const onLine = new Set<string>();
  let solverCalls = 0;
  let longestLine = 0;
  let failure: string | null = null;
  const seedsOn = (pos: Position): number => pos.pits.reduce((sum, n) => sum + n, 0);

  const check = (pos: Position, ply: number): boolean => {
    longestLine = Math.max(longestLine, ply);
    const end = outcome(pos, rules);
    if (end !== null) {
      if (end.winner !== winner) failure ??= `${formatPosition(pos)} ends won by ${end.winner}`;
      return end.winner === winner;
    }
    const key = formatPosition(pos);
    if (won.has(key)) return true;
    if (onLine.has(key)) {
      failure ??= `${key} comes round again`;
      return false;
    }
    onLine.add(key);
    let ok: boolean;
    if (pos.toMove === winner) {
      solverCalls++;
      const solver = endgame && seedsOn(pos) > endgame.maxSeeds ? withTable : plain;
      solver.clear();
      const r = solver.solveState(pos.toState(), { moves: false });
      ok = r.lo === 1 && r.bestMask !== 0;
      if (!ok) failure ??= `${key} is not proven won`;
      else ok = check(applyAction(pos, 31 - Math.clz32(r.bestMask & -r.bestMask), rules), ply + 1);
    } else {
      ok = legalActions(pos, rules).every((a) => check(applyAction(pos, a, rules), ply + 1));
    }
    onLine.delete(key);
    if (ok) won.add(key);
    return ok;
  };

  const verified = check(root, 0);
  return { verified, positions: won.size, solverCalls, longestLine, failure };
}
