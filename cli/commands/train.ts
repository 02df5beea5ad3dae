import { existsSync, readFileSync, statSync } from 'node:fs';
import type { Argv } from 'yargs';
import { algorithmOf, noShardsMessage } from '../../train/algorithm/registry.ts';
import { registerBuiltinAlgorithms } from '../../train/builtin-algorithms.ts';
import { layerFromArgv, readLayer } from '../../train/config/layers.ts';
import { PRESETS, presetsHelp } from '../../train/config/presets.ts';
import type { TrainConfig } from '../../train/settings/schema.ts';
import { CliError, defineCommand, runCommand, UsageError } from '../fail.ts';
import { inferenceOption } from '../inference-option.ts';
import {
  type QueueArgs,
  queueOptions,
  queueUrl,
  stopOnSignals,
  writeStatusLine,
} from '../queue-args.ts';
import { configFlags } from '../train-flags.ts';

registerBuiltinAlgorithms();

interface TrainArgs extends QueueArgs {
  preset?: string;
  config?: string;
  resume: boolean;
  overwrite: boolean;
  queueTimeout?: number;
  [flag: string]: unknown;
}

function readConfigFile(path: string): Record<string, unknown> {
  if (!existsSync(path)) throw new CliError(`config file ${path} does not exist`);
  if (!statSync(path).isFile()) throw new CliError(`config file ${path} is not a file`);
  try {
    const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      throw new CliError(`config file ${path} must hold a JSON object`);
    }
    return data as Record<string, unknown>;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`config file ${path} is not valid JSON`);
  }
}

export const trainCommand = defineCommand<TrainArgs>({
  command: 'train',
  describe:
    'Train a policy-value network from scratch by self-play (expert iteration, PPO or REINFORCE), evaluating it against baselines',
  builder: (y) =>
    y
      .option('inference', inferenceOption)
      .option('preset', {
        type: 'string',
        choices: Object.keys(PRESETS),
        describe: `start from a named configuration (${presetsHelp()})`,
      })
      .option('config', {
        type: 'string',
        describe:
          "JSON file of settings (validated): a run's config.json, or flags' names in camelCase",
      })
      .option('resume', {
        type: 'boolean',
        default: false,
        describe:
          'continue runs/NAME from its newest checkpoint (only iterations, time limit and evaluation settings may change)',
      })
      .option('overwrite', {
        type: 'boolean',
        default: false,
        describe: 'delete an existing run of the same name first',
      })
      .options(
        queueOptions(
          'play the self-play shards of the algorithms that have them on `ayoayo worker`s',
        ),
      )
      .option('queue-timeout', {
        type: 'number',
        describe:
          'with --queue: fail when no worker has run or finished a shard for this many seconds (default: wait, saying every minute what is waiting)',
      })
      .options(configFlags())
      .example(
        '$0 train --preset quick',
        'the npm start job: a small agent in minutes, the same one on every machine',
      )
      .example(
        '$0 train --name az --algorithm expert-iteration --search-simulations 32',
        'expert iteration with deeper searches',
      )
      .example('$0 train --name mine --iterations 200 --hidden 256,256', 'a custom run')
      .example('$0 train --name mine --resume --iterations 400', 'continue it')
      .example(
        `AYOAYO_QUEUE=redis://:secret@10.0.0.5:6379 $0 train --preset long --queue ''`,
        "expert iteration's self-play on the queue's workers",
      ) as unknown as Argv<TrainArgs>,
  handler: runCommand(async (argv: TrainArgs) => {
    const queue = queueUrl(argv, false);
    const timeout = argv.queueTimeout;
    if (timeout !== undefined) {
      if (queue === undefined) throw new UsageError('--queue-timeout applies with --queue only');
      if (!(timeout > 0) || !Number.isFinite(timeout)) {
        throw new UsageError(
          `--queue-timeout must be a positive number of seconds, got ${timeout}`,
        );
      }
    }
    const preset = argv.preset !== undefined ? PRESETS[argv.preset] : undefined;
    const where = argv.config !== undefined ? `config (${argv.config} and flags)` : 'config';
    const fromFile =
      argv.config !== undefined ? readLayer(readConfigFile(argv.config), where) : undefined;
    const layers = [preset, fromFile, layerFromArgv(argv)];
    // Loaded here, not at the top, so that other commands start without tfjs and vega.
    const { train } = await import('../../train/trainer.ts');
    const options = {
      resume: argv.resume,
      overwrite: argv.overwrite,
      where,
      notes: (line: string) => process.stderr.write(`${line}\n`),
    };
    if (queue === undefined) {
      await train(layers, options);
      return;
    }
    const { queueShardRunner } = await import('../../queue/shard-runner.ts');
    // Before the run folder is written: a usage mistake, then an unusable queue.
    const ready = async (config: TrainConfig): Promise<void> => {
      if (algorithmOf(config).shards === null) {
        throw new UsageError(noShardsMessage(config.algorithm));
      }
      await (await import('../../queue/redis.ts')).checkRedis(queue);
    };
    const stop = stopOnSignals();
    try {
      const shardRunner = queueShardRunner(queue, {
        log: writeStatusLine,
        signal: stop.signal,
        ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
      });
      await train(layers, { ...options, shardRunner, ready });
    } finally {
      stop.dispose();
    }
  }),
});
