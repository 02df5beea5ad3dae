import { availableParallelism } from 'node:os';
import type { Argv } from 'yargs';
import { DEFAULT_MOVE_TIMEOUT_MS } from '../../agents/external.ts';
import { splitAgentList } from '../../agents/spec.ts';
import { gamesProgressBar } from '../../display/progress.ts';
import { SEED_RANGE } from '../../env/index.ts';
import { DEFAULT_MAX_PLIES } from '../../eval/game.ts';
import { DEFAULT_OPENING_PLIES } from '../../eval/openings.ts';
import { writeRatingCharts } from '../../eval/rating-charts.ts';
import {
  formatReviews,
  formatTournament,
  tournamentJson,
  writeTournament,
} from '../../eval/report.ts';
import { reviewTournamentGames } from '../../eval/review-games.ts';
import type { GameErrors } from '../../eval/review-job.ts';
import { runTournament } from '../../eval/tournament.ts';
import { capWorkers } from '../../threads/pool.ts';
import { agentFormsForHelp } from '../agent-forms.ts';
import { endgameOption, endgameSeedsFromArg } from '../endgame-option.ts';
import { durationFlag, durationFromArg, rulesFromArg, rulesOption } from '../engine-args.ts';
import { defineCommand, runCommand, UsageError } from '../fail.ts';
import { inferenceOption } from '../inference-option.ts';
import { prepareOutputFolder } from '../output-folder.ts';
import {
  type QueueArgs,
  queueOptions,
  queueUrl,
  stopOnSignals,
  writeStatusLine,
} from '../queue-args.ts';
import { workersHere } from '../workers-option.ts';

interface EvalArgs extends QueueArgs {
  agents: string[];
  vs?: string;
  games: number;
  seed: number;
  out?: string;
  workers: number;
  openingPlies: number;
  maxPlies: number;
  moveTimeout: number;
  rules?: string;
  review: boolean;
  reviewTime: string;
  reviewEndgame: string;
  json: boolean;
  quiet: boolean;
}

export const evalCommand = defineCommand<EvalArgs>({
  command: 'eval',
  describe: 'Play a round robin (or a gauntlet) between agents and rate them',
  builder: (y) =>
    y
      .option('inference', inferenceOption)
      .option('agents', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: `agents, comma-separated or repeated (${agentFormsForHelp()})`,
      })
      .option('vs', { type: 'string', describe: 'gauntlet: this agent plays each of --agents' })
      .option('games', {
        type: 'number',
        default: 100,
        describe: 'games per pairing, half from each seat',
      })
      .option('seed', {
        type: 'number',
        default: 1,
        describe: 'seed of the openings and of every random choice',
      })
      .option('out', {
        type: 'string',
        describe:
          'folder for games.csv, summary.csv, ratings.csv, results.json and the charts ratings.svg/.png, scores.svg/.png',
      })
      .option('workers', {
        type: 'number',
        default: availableParallelism(),
        describe: 'worker threads (default and most: one per core); 0 plays in the main thread',
      })
      .option('opening-plies', {
        type: 'number',
        default: DEFAULT_OPENING_PLIES,
        describe:
          'random plies from the start before the agents play (same openings for both seats)',
      })
      .option('max-plies', {
        type: 'number',
        default: DEFAULT_MAX_PLIES,
        describe: 'plies after which a game is stopped and scored as a draw',
      })
      .option('move-timeout', {
        type: 'number',
        default: DEFAULT_MOVE_TIMEOUT_MS,
        describe: 'ms an external engine has per move before it forfeits the game',
      })
      .option('rules', rulesOption)
      .option('review', {
        type: 'boolean',
        default: false,
        describe:
          "review every game against exact values: each agent's value-losing moves (a table; with --out, their plies in games.csv)",
      })
      .option(
        'review-time',
        durationFlag(
          '10s',
          'solver budget per position of --review, up to 24h (moves not proven in time are undecided)',
        ),
      )
      .option('review-endgame', {
        ...endgameOption,
        describe:
          "--review's endgame table: every board of at most this many seeds is looked up (built on first use, then cached); 0: none",
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the results as JSON' })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress bar' })
      .options(queueOptions('play on `ayoayo worker`s'))
      .example(
        '$0 eval --agents random,greedy,minimax:4 --games 200 --out runs/eval',
        'round robin',
      )
      .example('$0 eval --vs minimax:t=200ms --agents random,greedy,mcts:1000', 'gauntlet')
      .example(
        "$0 eval --agents 'ext:python3 engine.py,minimax:4'",
        'an external engine',
      ) as unknown as Argv<EvalArgs>,
  handler: runCommand(async (argv: EvalArgs) => {
    const specs = splitAgentList(argv.agents);
    for (const [name, value] of [
      ['--games', argv.games],
      ['--workers', argv.workers],
      ['--opening-plies', argv.openingPlies],
      ['--max-plies', argv.maxPlies],
      ['--seed', argv.seed],
    ] as const) {
      const least = name === '--games' ? 1 : name === '--seed' ? Number.NEGATIVE_INFINITY : 0;
      if (!Number.isSafeInteger(value) || value < least) {
        const what =
          least === 1 ? 'a positive integer' : least === 0 ? 'a non-negative integer' : SEED_RANGE;
        throw new UsageError(`${name} must be ${what}, got ${value}`);
      }
    }
    if (!(argv.moveTimeout > 0))
      throw new UsageError(`--move-timeout must be positive, got ${argv.moveTimeout}`);
    const reviewMs = durationFromArg('--review-time', argv.reviewTime);
    const reviewSeeds = endgameSeedsFromArg('--review-endgame', argv.reviewEndgame);
    const rules = rulesFromArg(argv.rules);
    const queue = queueUrl(argv, false);
    const workers = workersHere(argv.workers, queue);
    // Before the work: a bad --out must not cost the games.
    if (argv.out !== undefined) prepareOutputFolder(argv.out);
    const bar = gamesProgressBar({ quiet: argv.quiet });
    const stop = queue !== undefined ? stopOnSignals() : null;
    let result: Awaited<ReturnType<typeof runTournament>>;
    try {
      result = await runTournament({
        specs,
        games: argv.games,
        seed: argv.seed,
        workers,
        openingPlies: argv.openingPlies,
        maxPlies: argv.maxPlies,
        moveTimeoutMs: argv.moveTimeout,
        rules,
        ...(argv.vs !== undefined ? { vs: argv.vs } : {}),
        ...(queue !== undefined && stop !== null
          ? {
              // The queue's client (BullMQ, ioredis) is loaded only for a queued tournament.
              runChunks: (await import('../../queue/tournament-runner.ts')).queueChunkRunner(
                queue,
                { log: writeStatusLine, signal: stop.signal },
              ),
            }
          : {}),
        onProgress: ({ done, total }) => bar.update(done, total),
      });
    } finally {
      stop?.dispose();
      bar.stop();
    }
    let reviews: GameErrors[] | undefined;
    if (argv.review) {
      const reviewBar = gamesProgressBar({ quiet: argv.quiet, label: 'reviewing' });
      try {
        reviews = await reviewTournamentGames(result.games, {
          rules,
          budgetMs: reviewMs,
          endgameSeeds: reviewSeeds,
          quiet: argv.quiet,
          // Reviews run here, a queued tournament's too: at most one thread per core.
          workers: Math.min(capWorkers(argv.workers), result.games.length),
          onProgress: (done, total) => reviewBar.update(done, total),
        });
      } finally {
        reviewBar.stop();
      }
    }
    if (argv.json) process.stdout.write(tournamentJson(result, reviews));
    else {
      process.stdout.write(formatTournament(result));
      if (reviews !== undefined) process.stdout.write(`\n${formatReviews(result.games, reviews)}`);
    }
    if (argv.out !== undefined) {
      const written = writeTournament(argv.out, result, reviews);
      written.push(...(await writeRatingCharts(argv.out, result)));
      process.stderr.write(`wrote ${written.join(', ')}\n`);
    }
  }),
});
