import { existsSync, readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { parseSweepConfig } from '../../queue/sweep-plan.ts';
import { CliError, defineCommand, runCommand } from '../fail.ts';

interface SweepArgs {
  config: string;
  queue?: string;
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
      .option('queue', {
        type: 'string',
        describe: 'train on `ayoayo worker`s through this Redis queue (redis://, rediss://)',
      })
      .example('$0 sweep --config sweep.json', 'one run after another on this machine')
      .example(
        '$0 sweep --config sweep.json --queue redis://:secret@10.0.0.5:6379',
        'one job per run',
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
    // Loaded here: the trainer (tfjs) is only needed once the config is valid.
    const { runSweep } = await import('../../queue/sweep.ts');
    const summary = await runSweep(sweep, {
      ...(argv.queue !== undefined ? { queue: argv.queue } : {}),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(summary.text);
    process.stderr.write(`wrote ${summary.written.join(', ')}\n`);
  }),
});
