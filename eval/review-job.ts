import { initialPosition, type Player, type Rules } from '../env/index.ts';
import { cachedEndgame } from '../solve/endgame/cache/shared-tables.ts';
import { type ExactValues, reviewGame } from '../solve/index.ts';
import { threadJob } from '../threads/job.ts';
import { reviewOracle } from './review-oracle.ts';

/** A tournament game's review: where each seat's agent lost value. Plies count from the start, the opening included. */
export interface GameErrors {
  /** The plies of player 0's and of player 1's value-losing moves. */
  readonly errors: readonly [readonly number[], readonly number[]];
  /** The plies of each seat's moves whose loss of value the review could not tell within its budget. */
  readonly undecided: readonly [readonly number[], readonly number[]];
  /** The agents' moves reviewed, by seat. */
  readonly moves: readonly [number, number];
}

/** Games to review on a worker thread: their moves from the start, and where the agents took over. */
export interface ReviewJob {
  readonly rules: Rules;
  /** Milliseconds of search per position. */
  readonly budgetMs: number;
  /** The endgame table's seeds (from the user's cache, made sure of by the main thread); 0: none. */
  readonly endgameSeeds: number;
  readonly games: readonly { readonly moves: readonly number[]; readonly fromPly: number }[];
}

// One oracle per thread, budget and table: its solver's table keeps what it
// proved about the openings, which many games share.
const oracles = new Map<string, ExactValues>();

function oracleFor(budgetMs: number, seeds: number): ExactValues {
  const key = `${budgetMs}|${seeds}`;
  let oracle = oracles.get(key);
  if (oracle === undefined) {
    oracle = reviewOracle({
      budgetMs,
      endgame: (rules) => (seeds === 0 ? null : cachedEndgame(seeds, rules)),
    });
    oracles.set(key, oracle);
  }
  return oracle;
}

/** Reviews a job's games in this thread (the pool's `review` job), counting each game reviewed. */
export function runReviewJob(job: ReviewJob, count: () => void = () => {}): GameErrors[] {
  const oracle = oracleFor(job.budgetMs, job.endgameSeeds);
  return job.games.map((game) => {
    const review = reviewGame(
      { start: initialPosition(), actions: game.moves, rules: job.rules, fromPly: game.fromPly },
      oracle,
    );
    const plies = (player: Player, error: boolean | null): number[] =>
      review.moves.filter((m) => m.player === player && m.error === error).map((m) => m.ply);
    count();
    return {
      errors: [plies(0, true), plies(1, true)],
      undecided: [plies(0, null), plies(1, null)],
      moves: [review.players[0].moves, review.players[1].moves],
    };
  });
}

/** The thread job that reviews a few tournament games. */
export const REVIEW_JOB = threadJob(import.meta.url, runReviewJob);
