import { availableParallelism } from 'node:os';
import type { Argv } from 'yargs';
import { DEFAULT_MOVE_TIMEOUT_MS } from '../../agents/external.ts';
import { splitAgentList } from '../../agents/spec.ts';
import { gamesProgressBar } from '../../display/progress.ts';
import { SEED_RANGE } from '../../env/index.ts';
import { DEFAULT_MAX_PLIES } from '../../eval/game.ts';
import { DEFAULT_OPENING_PLIES } from '../../eval/openings.ts';
import { writeRatingCharts } from '../../eval/rating-charts.ts';
import { formatTournament, tournamentJson, writeTournament } from '../../eval/report.ts';
import { runTournament } from '../../eval/tournament.ts';
import { agentFormsForHelp } from '../agent-forms.ts';
import { rulesFromArg, rulesOption } from '../engine-args.ts';
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
        rules: rulesFromArg(argv.rules),
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
    process.stdout.write(argv.json ? tournamentJson(result) : formatTournament(result));
    if (argv.out !== undefined) {
      const written = writeTournament(argv.out, result);
      written.push(...(await writeRatingCharts(argv.out, result)));
      process.stderr.write(`wrote ${written.join(', ')}\n`);
    }
  }),
});
