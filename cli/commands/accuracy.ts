import { availableParallelism } from 'node:os';
import type { Argv } from 'yargs';
import { DEFAULT_MOVE_TIMEOUT_MS } from '../../agents/external.ts';
import { checkAgentSpec, splitAgentList } from '../../agents/spec.ts';
import { gamesProgressBar } from '../../display/progress.ts';
import { SEED_RANGE } from '../../env/index.ts';
import type { AccuracySet } from '../../eval/accuracy/accuracy-set.ts';
import { type AccuracyReport, runAccuracy } from '../../eval/accuracy/benchmark.ts';
import { accuracyJson, formatAccuracy, writeAccuracy } from '../../eval/accuracy/report.ts';
import { loadAccuracySet, SET_CHOICES } from '../../eval/accuracy/shipped-sets.ts';
import { verifyAccuracySet, verifyBudget } from '../../eval/accuracy/verify.ts';
import { loadEndgameShowingProgress } from '../../solve/endgame/cache/progress.ts';
import { agentFormsForHelp } from '../agent-forms.ts';
import { defineCommand, runCommand, UsageError } from '../fail.ts';
import { prepareOutputFolder } from '../output-folder.ts';
import { type QueueArgs, queueOptions, queueUrl, stopOnSignals } from '../queue-args.ts';
import { workersHere } from '../workers-option.ts';

interface AccuracyArgs extends QueueArgs {
  agents?: string[];
  set: string;
  verify?: string;
  seed: number;
  out?: string;
  workers: number;
  moveTimeout: number;
  json: boolean;
  quiet: boolean;
}

export const accuracyCommand = defineCommand<AccuracyArgs>({
  command: 'accuracy',
  describe: 'Measure agents against perfect play: how often their move loses value, by game phase',
  builder: (y) =>
    y
      .option('agents', {
        type: 'string',
        array: true,
        describe: `agents, comma-separated or repeated (${agentFormsForHelp()}); needed unless --verify alone checks the set`,
      })
      .option('set', {
        type: 'string',
        default: 'main',
        describe: `the positions: ${SET_CHOICES} (holdout: the larger set kept out of tuning)`,
      })
      .option('verify', {
        type: 'string',
        describe:
          '[N] first re-solve every position (N: a sample of N, drawn with --seed) and stop, exit 1, at the first line whose values the solver disagrees with; without --agents, only check (docs/accuracy.md)',
      })
      .option('seed', {
        type: 'number',
        default: 1,
        describe: 'seed of the generator each agent gets at each position (and of --verify N)',
      })
      .option('out', {
        type: 'string',
        describe: 'folder for accuracy.csv, accuracy.json and the chart accuracy.svg/.png',
      })
      .option('workers', {
        type: 'number',
        default: availableParallelism(),
        describe: 'worker threads (default and most: one per core); 0 runs in the main thread',
      })
      .option('move-timeout', {
        type: 'number',
        default: DEFAULT_MOVE_TIMEOUT_MS,
        describe: 'ms an external engine has per move',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the results as JSON' })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress bar' })
      .options(queueOptions('ask the agents on `ayoayo worker`s'))
      .example('$0 accuracy --agents greedy,minimax:4,minimax:t=50ms --out runs/accuracy', '')
      .example(
        '$0 accuracy --agents policy:models/pretrained --set holdout',
        'confirm on the hold-out set',
      )
      .example(
        '$0 accuracy --set my-set.jsonl --verify',
        "check a set file's values against the solver",
      ) as unknown as Argv<AccuracyArgs>,
  handler: runCommand(async (argv: AccuracyArgs) => {
    const verify = verifyCount(argv.verify);
    if (argv.agents === undefined && verify === undefined) {
      throw new UsageError(
        "--agents is required: name the agents to measure, or give --verify alone to check the set's values",
      );
    }
    const specs = splitAgentList(argv.agents ?? []);
    if (argv.agents !== undefined && specs.length === 0) {
      throw new UsageError('--agents names no agent');
    }
    if (!Number.isInteger(argv.workers) || argv.workers < 0) {
      throw new UsageError(`--workers must be a non-negative integer, got ${argv.workers}`);
    }
    if (!Number.isSafeInteger(argv.seed))
      throw new UsageError(`--seed must be ${SEED_RANGE}, got ${argv.seed}`);
    if (!(argv.moveTimeout > 0))
      throw new UsageError(`--move-timeout must be positive, got ${argv.moveTimeout}`);
    if (specs.length === 0 && argv.out !== undefined) {
      throw new UsageError('--out is for the results of --agents: --verify alone writes nothing');
    }
    const queue = queueUrl(argv, false);
    const set = loadAccuracySet(argv.set);
    // Before the work: a bad --out or agent spec must not cost the games, nor the verification.
    if (argv.out !== undefined) prepareOutputFolder(argv.out);
    if (verify !== undefined) {
      for (const spec of specs) await checkAgentSpec(spec, { rules: set.rules });
      const verified = await verifySet(set, verify, argv);
      if (specs.length === 0) {
        process.stdout.write(`${verified}\n`);
        return;
      }
      process.stderr.write(`${verified}\n`);
    }
    const workers = workersHere(argv.workers, queue);
    const bar = gamesProgressBar({ quiet: argv.quiet, label: 'accuracy', unit: 'positions' });
    const status = (line: string): void => {
      process.stderr.write(`${process.stderr.isTTY === true ? '\r\x1b[K' : ''}${line}\n`);
    };
    const stop = queue !== undefined ? stopOnSignals() : null;
    let report: AccuracyReport;
    try {
      report = await runAccuracy({
        specs,
        set,
        seed: argv.seed,
        workers,
        moveTimeoutMs: argv.moveTimeout,
        ...(queue !== undefined && stop !== null
          ? {
              // The queue's client (BullMQ, ioredis) is loaded only for a queued benchmark.
              runChunks: (await import('../../queue/accuracy-runner.ts')).queueAccuracyRunner(
                queue,
                { log: status, signal: stop.signal },
              ),
            }
          : {}),
        onProgress: ({ done, total }) => bar.update(done, total),
      });
    } finally {
      stop?.dispose();
      bar.stop();
    }
    process.stdout.write(argv.json ? accuracyJson(report) : formatAccuracy(report));
    if (argv.out !== undefined) {
      const written = await writeAccuracy(argv.out, report);
      process.stderr.write(`wrote ${written.join(', ')}\n`);
    }
  }),
});

/** --verify's count: undefined without the flag, 'all' with it alone. */
function verifyCount(text: string | undefined): number | 'all' | undefined {
  if (text === undefined) return undefined;
  if (text === '' || text === 'all') return 'all';
  const count = Number(text);
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new UsageError(
      `--verify takes the number of positions to re-solve (nothing: all of them), got '${text}'`,
    );
  }
  return count;
}

/** Re-solves the set (verifyAccuracySet) with a progress bar; the line saying it agrees. */
async function verifySet(
  set: AccuracySet,
  count: number | 'all',
  argv: AccuracyArgs,
): Promise<string> {
  const { endgameSeeds } = verifyBudget(set.header);
  const endgame =
    endgameSeeds > 0
      ? loadEndgameShowingProgress(endgameSeeds, set.rules, {
          quiet: argv.quiet,
          announceBuild: true,
        })
      : null;
  const bar = gamesProgressBar({ quiet: argv.quiet, label: 'verify', unit: 'positions' });
  let checked: number;
  try {
    ({ checked } = await verifyAccuracySet(set, {
      endgame,
      seed: argv.seed,
      ...(count !== 'all' ? { sample: count } : {}),
      onProgress: (done, total) => bar.update(done, total),
    }));
  } finally {
    bar.stop();
  }
  const total = set.positions.length;
  return checked < total
    ? `verified ${set.path}: the solver agrees with the values of the ${checked} positions of a sample of ${total} (--seed ${argv.seed})`
    : `verified ${set.path}: the solver agrees with the values of all ${total} positions`;
}
