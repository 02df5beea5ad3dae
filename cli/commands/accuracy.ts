import { availableParallelism } from 'node:os';
import type { Argv } from 'yargs';
import { DEFAULT_MOVE_TIMEOUT_MS } from '../../agents/external.ts';
import { agentSpecForms, splitAgentList } from '../../agents/spec.ts';
import { SEED_RANGE } from '../../env/index.ts';
import { type AccuracyReport, runAccuracy } from '../../eval/accuracy/benchmark.ts';
import { accuracyJson, formatAccuracy, writeAccuracy } from '../../eval/accuracy/report.ts';
import { gamesProgressBar } from '../../eval/progress.ts';
import { capWorkers } from '../../eval/tournament.ts';
import { loadAccuracySet, SET_CHOICES } from '../../models/accuracy-sets.ts';
// The help lists every agent kind's forms, those that load a network included.
import '../../models/policy-kind.ts';
import { defineCommand, runCommand, UsageError } from '../fail.ts';
import { prepareOutputFolder } from '../output-folder.ts';
import { type QueueArgs, queueOptions, queueUrl, stopOnSignals } from '../queue-args.ts';

interface AccuracyArgs extends QueueArgs {
  agents: string[];
  set: string;
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
        demandOption: true,
        describe: `agents, comma-separated or repeated (${agentSpecForms().join(', ')})`,
      })
      .option('set', {
        type: 'string',
        default: 'main',
        describe: `the positions: ${SET_CHOICES} (holdout: the larger set kept out of tuning)`,
      })
      .option('seed', {
        type: 'number',
        default: 1,
        describe: 'seed of the generator each agent gets at each position',
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
      ) as unknown as Argv<AccuracyArgs>,
  handler: runCommand(async (argv: AccuracyArgs) => {
    const specs = splitAgentList(argv.agents);
    if (specs.length === 0) throw new UsageError('--agents names no agent');
    if (!Number.isInteger(argv.workers) || argv.workers < 0) {
      throw new UsageError(`--workers must be a non-negative integer, got ${argv.workers}`);
    }
    if (!Number.isSafeInteger(argv.seed))
      throw new UsageError(`--seed must be ${SEED_RANGE}, got ${argv.seed}`);
    if (!(argv.moveTimeout > 0))
      throw new UsageError(`--move-timeout must be positive, got ${argv.moveTimeout}`);
    const set = loadAccuracySet(argv.set);
    const queue = queueUrl(argv, false);
    const workers = queue !== undefined ? argv.workers : capWorkers(argv.workers);
    if (workers < argv.workers) {
      process.stderr.write(
        `ayoayo: --workers ${argv.workers} is more than the ${workers} cores here; using ${workers}\n`,
      );
    }
    // Before the work: a bad --out must not cost the games.
    if (argv.out !== undefined) prepareOutputFolder(argv.out);
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
