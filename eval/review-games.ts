import type { Rules } from '../env/index.ts';
import { loadEndgameShowingProgress } from '../solve/endgame/cache/progress.ts';
import { cachedEndgame } from '../solve/endgame/cache/shared-tables.ts';
import { DEFAULT_ENDGAME_SEEDS } from '../solve/endgame/cache/table-cache.ts';
import { runAllOnThreads } from '../threads/pool.ts';
import type { GameRecord } from './match.ts';
import { type GameErrors, REVIEW_JOB, type ReviewJob, runReviewJob } from './review-job.ts';

/** Games a thread reviews in one job: a few, so that the threads share the work evenly. */
const GAMES_PER_JOB = 4;

export interface ReviewGamesOptions {
  readonly rules: Rules;
  /** Milliseconds of search per position. */
  readonly budgetMs: number;
  /** The endgame table's seeds (default DEFAULT_ENDGAME_SEEDS, built into the user's cache when missing); 0: none. */
  readonly endgameSeeds?: number;
  /** Nothing on stderr while the endgame table is built. */
  readonly quiet?: boolean;
  /** Worker threads; 0 reviews in this thread. */
  readonly workers: number;
  /** Hears of games reviewed. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Reviews the agents' moves in a tournament's games (the opening's random
 * moves are played, not judged), on worker threads: the value-losing moves of
 * each game, by seat, in the games' order. The endgame table the review reads
 * is made sure of here first, so that the threads read it rather than each
 * building it.
 */
export async function reviewTournamentGames(
  games: readonly GameRecord[],
  options: ReviewGamesOptions,
): Promise<GameErrors[]> {
  const seeds = options.endgameSeeds ?? DEFAULT_ENDGAME_SEEDS;
  const jobs: ReviewJob[] = [];
  for (let i = 0; i < games.length; i += GAMES_PER_JOB) {
    jobs.push({
      rules: options.rules,
      budgetMs: options.budgetMs,
      endgameSeeds: seeds,
      games: games.slice(i, i + GAMES_PER_JOB).map((g) => ({
        moves: [...g.openingMoves, ...g.actions],
        fromPly: g.openingMoves.length,
      })),
    });
  }
  let done = 0;
  const onCount = (count = 1): void => {
    done += count;
    options.onProgress?.(done, games.length);
  };
  if (seeds > 0) {
    loadEndgameShowingProgress(seeds, options.rules, {
      announceBuild: true,
      quiet: options.quiet ?? false,
      // Reviewed here, the table is kept for this thread's oracle.
      ...(options.workers === 0 ? { load: cachedEndgame } : {}),
    });
  }
  if (options.workers === 0) return jobs.flatMap((job) => runReviewJob(job, onCount));
  const results = await runAllOnThreads(REVIEW_JOB, jobs, options.workers, onCount);
  return results.flat();
}
