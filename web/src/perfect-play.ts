/**
 * The page's "perfect play says" line, without any DOM: the opening book's
 * proven value where the position is in it (the book the page serves,
 * book.bin), else the exact solver (solve/, no endgame table, which would
 * weigh megabytes) run on the position with a short budget, and the answer
 * in words from the person's side. The page runs it in a Web Worker
 * (solver-worker.mts) so that a solve never blocks the board; tests call it
 * directly.
 */
import { type Player, parsePosition, type Rules, sameRules } from '../../env/index.ts';
import type { OpeningBook } from '../../solve/book/book.ts';
import { Solver } from '../../solve/solver.ts';
import { type GameValue, gameValue } from '../../solve/value.ts';
import { PLAYER_NAMES } from './game-session.ts';

/** How long the page lets the solver try a position: short, so the line follows the game. */
export const PERFECT_PLAY_MS = 1500;
/** log2 of the table's entries: 2^18 entries (8 MB), kept across the game's positions. */
const TABLE_BITS = 18;

/** A question to the worker: the value of this position under these rules. */
export interface PerfectPlayRequest {
  readonly id: number;
  /** The position in notation. */
  readonly position: string;
  readonly rules: Rules;
  readonly budgetMs: number;
}

/** The worker's answer: the value for the player to move, proven or `unknown`. */
export interface PerfectPlayAnswer {
  readonly id: number;
  readonly position: string;
  readonly toMove: Player;
  readonly value: GameValue;
  /** Where the value came from: the opening book (proven when it was built), or a solve now. */
  readonly source: 'book' | 'solver';
  /** The budget ran out (else an `unknown` hangs on endless play). */
  readonly budgetSpent: boolean;
  readonly timeMs: number;
  readonly nodes: number;
}

/**
 * Answers requests one at a time: from the opening book where it proves the
 * position's value, else with one solver per rule set, so that what it
 * proved about one position of a game speeds up the next ones.
 */
export class PerfectPlay {
  #solver: Solver | null = null;

  /** `book`: the opening book under the request's rules (null: none, or not loaded). */
  answer(request: PerfectPlayRequest, book: OpeningBook | null = null): PerfectPlayAnswer {
    const started = performance.now();
    const pos = parsePosition(request.position);
    const entry =
      book !== null && sameRules(book.rules, request.rules) ? book.lookup(pos.stateView) : null;
    if (entry !== null && entry.lo === entry.hi) {
      return {
        id: request.id,
        position: request.position,
        toMove: pos.toMove,
        value: gameValue(entry.lo, entry.hi),
        source: 'book',
        budgetSpent: false,
        timeMs: Math.round(performance.now() - started),
        nodes: 0,
      };
    }
    const solver = this.#solverFor(request.rules);
    const result = solver.solveState(pos.stateView, { timeMs: request.budgetMs, moves: false });
    return {
      id: request.id,
      position: request.position,
      toMove: pos.toMove,
      value: gameValue(result.lo, result.hi),
      source: 'solver',
      budgetSpent: result.budgetSpent,
      timeMs: Math.round(result.elapsedMs),
      nodes: result.nodes,
    };
  }

  #solverFor(rules: Rules): Solver {
    const current = this.#solver;
    if (current !== null && sameRules(current.rules, rules)) return current;
    this.#solver = new Solver({ rules, tableBits: TABLE_BITS });
    return this.#solver;
  }
}

/** The answer's value for `human` (win, draw, loss), or `unknown`. */
export function valueForHuman(answer: PerfectPlayAnswer, human: Player): GameValue {
  if (answer.value === 'unknown' || answer.value === 'draw' || answer.toMove === human) {
    return answer.value;
  }
  return answer.value === 'win' ? 'loss' : 'win';
}

/** The line the page shows, from the person's side. */
export function describePerfectPlay(answer: PerfectPlayAnswer, human: Player): string {
  const you = PLAYER_NAMES[human];
  const other = PLAYER_NAMES[1 - human];
  switch (valueForHuman(answer, human)) {
    case 'win':
      return `Perfect play says: win for you (${you}).`;
    case 'loss':
      return `Perfect play says: loss for you (${other} wins).`;
    case 'draw':
      return 'Perfect play says: draw.';
    default:
      return answer.budgetSpent
        ? `Perfect play: not proven within ${(answer.timeMs / 1000).toFixed(1)} s.`
        : 'Perfect play: this position hangs on endless play.';
  }
}
