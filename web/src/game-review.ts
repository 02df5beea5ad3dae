/**
 * The page's game review, without any DOM: solve/review.ts run in the
 * solver's worker (solver-worker.mts) on the game's moves, and its answer in
 * words from the person's side. The worker's oracle is the solver with a small
 * endgame table it builds itself (no download) and a budget per position;
 * tests call it directly.
 */

import { type Player, parsePosition, type Rules, rulesKey } from '../../env/index.ts';
import {
  buildEndgame,
  type EndgameValues,
  type ExactValues,
  type GameReview,
  type PlayerReview,
  type ReviewedMove,
  reviewGame,
  solverExactValues,
} from '../../solve/index.ts';
import { PLAYER_NAMES, pitLabel } from './game-session.ts';

/** The solver's budget per position of a review, in milliseconds (`?review=MS` changes it). */
export const REVIEW_MS = 5000;
/**
 * The seeds of the endgame table the worker builds for reviews: 12 seeds is
 * 2.7 million boards, 5.4 MB, built in about 2 s; it makes the start's solve
 * take a fraction of a second instead of about ten.
 */
export const REVIEW_ENDGAME_SEEDS = 12;
/** log2 of the review solver's table entries: 2^18 (8 MB), kept from one review to the next. */
const TABLE_BITS = 18;

/** A question to the worker: review these moves from this position. */
export interface ReviewRequest {
  readonly kind: 'review';
  readonly id: number;
  /** The position the moves start from, in notation. */
  readonly start: string;
  readonly actions: readonly number[];
  readonly rules: Rules;
  readonly budgetMs: number;
}

/** What the worker posts while it reviews (moves done of total), then the review. */
export type ReviewMessage =
  | {
      readonly kind: 'review-progress';
      readonly id: number;
      readonly done: number;
      readonly total: number;
    }
  | {
      readonly kind: 'review';
      readonly id: number;
      readonly review: GameReview;
      readonly timeMs: number;
    };

export function isReviewRequest(data: unknown): data is ReviewRequest {
  return (
    typeof data === 'object' && data !== null && (data as { kind?: unknown }).kind === 'review'
  );
}

/**
 * Reviews games one at a time, building the endgame table of each rule set
 * once and keeping one solver per budget, so that a second review of a game
 * (on demand, then at its end) reuses what the first proved.
 */
export class PageReviewer {
  readonly #tables = new Map<string, EndgameValues>();
  #oracle: { readonly budgetMs: number; readonly values: ExactValues } | null = null;

  answer(
    request: ReviewRequest,
    onProgress: (done: number, total: number) => void = () => {},
  ): Extract<ReviewMessage, { kind: 'review' }> {
    const started = performance.now();
    const review = reviewGame(
      { start: parsePosition(request.start), actions: request.actions, rules: request.rules },
      this.#valuesFor(request.budgetMs),
      onProgress,
    );
    return {
      kind: 'review',
      id: request.id,
      review,
      timeMs: Math.round(performance.now() - started),
    };
  }

  #valuesFor(budgetMs: number): ExactValues {
    if (this.#oracle?.budgetMs !== budgetMs) {
      this.#oracle = {
        budgetMs,
        values: solverExactValues({
          budgetMs,
          tableBits: TABLE_BITS,
          endgame: (rules) => this.#table(rules),
        }),
      };
    }
    return this.#oracle.values;
  }

  #table(rules: Rules): EndgameValues {
    const key = rulesKey(rules);
    let table = this.#tables.get(key);
    if (table === undefined) {
      table = buildEndgame(REVIEW_ENDGAME_SEEDS, rules);
      this.#tables.set(key, table);
    }
    return table;
  }
}

/** `South (you)` or `North (minimax:4)`. */
function who(player: Player, human: Player, computerName: string): string {
  return `${PLAYER_NAMES[player]} (${player === human ? 'you' : computerName})`;
}

/** A value in the page's words: `unknown` is what the solver could not prove in time. */
function valueText(value: ReviewedMove['before']): string {
  return value === 'unknown' ? 'not proven' : value;
}

/**
 * One line of the review, values from the mover's side, e.g. "South (you)
 * played S0: win → loss, lost value; best S2".
 */
export function describeReviewedMove(
  move: ReviewedMove,
  human: Player,
  computerName: string,
): string {
  const pit = pitLabel(move.player * 6 + move.action);
  const line = `${who(move.player, human, computerName)} played ${pit}: ${valueText(move.before)} → ${valueText(move.after)}`;
  if (move.error !== true) return line;
  const best = move.best.map((a) => pitLabel(move.player * 6 + a)).join(' or ');
  return `${line}, lost value; best ${best}`;
}

function playerSummary(summary: PlayerReview, human: Player, computerName: string): string {
  const moves = `${summary.moves} move${summary.moves === 1 ? '' : 's'}`;
  const errors =
    summary.errors === 0
      ? 'none lost value'
      : `${summary.errors} lost value (the first: move ${(summary.firstError ?? 0) + 1})`;
  const undecided = summary.undecided > 0 ? `, ${summary.undecided} not proven` : '';
  return `${who(summary.player, human, computerName)}: ${moves}, ${errors}${undecided}.`;
}

/** The review's summary line: each side's moves and how many lost value. */
export function describeReviewSummary(
  review: GameReview,
  human: Player,
  computerName: string,
): string {
  const [first, second] = human === 0 ? review.players : [review.players[1], review.players[0]];
  return `${playerSummary(first, human, computerName)} ${playerSummary(second, human, computerName)}`;
}
