import { existsSync, readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { parseSweepConfig } from '../../queue/sweep-plan.ts';
import { registerBuiltinAlgorithms } from '../../train/builtin-algorithms.ts';
import { CliError, defineCommand, runCommand } from '../fail.ts';
import { type QueueArgs, queueOptions, queueUrl, stopOnSignals } from '../queue-args.ts';

registerBuiltinAlgorithms();

interface SweepArgs extends QueueArgs {
  config: string;
  progress: boolean;
}

export const sweepCommand = defineCommand<SweepArgs>({
  command: 'sweep',
  describe: 'Train a grid or a seeded random search of settings, here or on queue workers',
  builder: (y) =>
    y
      .option('config', {
        type: 'string',
        demandOption: true,
        describe: 'SWEEP.json: name, preset, base, and grid or random (see docs/scale-out.md)',
      })
      .option('progress', {
        type: 'boolean',
        default: true,
        describe:
          "without --queue: show each run's training as `ayoayo train` does (--no-progress: a line per run only)",
      })
      .options(queueOptions('train on `ayoayo worker`s'))
      .example('$0 sweep --config sweep.json', 'one run after another on this machine')
      .example(
        'AYOAYO_QUEUE=redis://:secret@10.0.0.5:6379 $0 sweep --config sweep.json --queue',
        'one job per run (the URL from the environment, out of ps)',
      ) as unknown as Argv<SweepArgs>,
  handler: runCommand(async (argv: SweepArgs) => {
    if (!existsSync(argv.config)) throw new CliError(`sweep config ${argv.config} does not exist`);
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(argv.config, 'utf8'));
    } catch {
      throw new CliError(`sweep config ${argv.config} is not valid JSON`);
    }
    const sweep = parseSweepConfig(data, `sweep config ${argv.config}`);
    const queue = queueUrl(argv, false);
    // Loaded here: the trainer (tfjs) is only needed once the config is valid.
    const { runSweep } = await import('../../queue/sweep.ts');
    const stop = queue !== undefined ? stopOnSignals() : null;
    let summary: Awaited<ReturnType<typeof runSweep>>;
    try {
      summary = await runSweep(sweep, {
        ...(queue !== undefined ? { queue } : {}),
        ...(stop !== null ? { signal: stop.signal } : {}),
        log: (line) => process.stderr.write(`${line}\n`),
        progress: argv.progress,
      });
    } finally {
      stop?.dispose();
    }
    process.stdout.write(summary.text);
    process.stderr.write(`wrote ${summary.written.join(', ')}\n`);
  }),
});
