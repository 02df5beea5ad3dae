/**
 * The page's perfect opponent, without any DOM: the project's perfect player
 * (agents/perfect.ts: the opening book, then the exact solver with the
 * worker's endgame table, no budget) run in a solver worker of its own
 * (solver-worker.mts), so that a long solve never blocks the board; and the
 * page's side of it, an agent that asks the worker for each move.
 * Tests call both directly.
 */
import type { Agent, AgentContext } from '../../agents/agent.ts';
import { PerfectPlayers } from '../../agents/perfect.ts';
import {
  formatPosition,
  type Position,
  parsePosition,
  Random,
  type Rules,
} from '../../env/index.ts';
import type { PageSolving } from './page-solving.ts';

/** A question to the worker: the perfect player's move in this position. */
export interface PerfectMoveRequest {
  readonly kind: 'perfect-move';
  readonly id: number;
  /** The position in notation. */
  readonly position: string;
  readonly rules: Rules;
  /** Draws the ties between equally good moves: the game's seed with the position, so a game replays alike. */
  readonly seed: string;
}

/** The worker's answer: the move, where its values came from, and how long it took. */
export interface PerfectMoveAnswer {
  readonly kind: 'perfect-move';
  readonly id: number;
  readonly action: number;
  readonly source: 'book' | 'solver';
  /** The position's value for the mover (-1, 0, 1), or null where it hangs on endless play. */
  readonly value: number | null;
  readonly timeMs: number;
}

/** The worker's answer where the move could not be found (a bug): what went wrong. */
export interface PerfectMoveFailure {
  readonly kind: 'perfect-move-failed';
  readonly id: number;
  readonly message: string;
}

export function isPerfectMoveRequest(data: unknown): data is PerfectMoveRequest {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { kind?: unknown }).kind === 'perfect-move'
  );
}

/** Answers PerfectMoveRequests with one perfect player per rule set, on the worker's book and tables. */
export class PagePerfectPlayer {
  readonly #solving: PageSolving;
  readonly #players: PerfectPlayers;

  constructor(solving: PageSolving) {
    this.#solving = solving;
    this.#players = new PerfectPlayers('perfect', (rules) => ({
      book: solving.book(rules),
      endgame: solving.table(rules),
    }));
  }

  /** Loads the book first (once), so that the opening's moves come from it. */
  async answer(request: PerfectMoveRequest): Promise<PerfectMoveAnswer> {
    await this.#solving.loadBook();
    const started = performance.now();
    const choice = this.#players
      .for(request.rules)
      .choose(parsePosition(request.position), request.rules, Random.fromSeed(request.seed));
    return {
      kind: 'perfect-move',
      id: request.id,
      action: choice.action,
      source: choice.source,
      value: choice.value,
      timeMs: Math.round(performance.now() - started),
    };
  }
}

/** How the page asks its worker for a perfect move (main.mts posts it and waits for the answer). */
export type AskPerfectMove = (
  request: Omit<PerfectMoveRequest, 'id'>,
) => Promise<PerfectMoveAnswer>;

/**
 * The perfect opponent on the page's side: an agent that asks the worker for
 * each move, ties seeded by the game and the position (not by the game's
 * generator), so that a game replays alike.
 */
export class RemotePerfectAgent implements Agent {
  constructor(
    readonly name: string,
    readonly ask: AskPerfectMove,
    readonly seed: number,
  ) {}

  async act(position: Position, { rules }: AgentContext): Promise<number> {
    const notation = formatPosition(position);
    const answer = await this.ask({
      kind: 'perfect-move',
      position: notation,
      rules,
      seed: `${this.seed}:${notation}`,
    });
    return answer.action;
  }
}
