import type { Argv } from 'yargs';
import { redactRedisUrl } from '../../queue/redis.ts';
import { startQueueWorker } from '../../queue/worker.ts';
import { memoryText } from '../../train/run/memory-limit.ts';
import { defineCommand, runCommand, UsageError } from '../fail.ts';
import { inferenceOption } from '../inference-option.ts';
import { maxJobMemoryOption, memoryFromArg } from '../memory-option.ts';
import { QUEUE_ENV, type QueueArgs, queueOptions, queueUrl, stopOnSignals } from '../queue-args.ts';

interface WorkerArgs extends QueueArgs {
  concurrency: number;
  allowExt: boolean;
  lockDuration: number;
  stalledInterval: number;
  maxJobMemory: string | undefined;
  quiet: boolean;
}

export const workerCommand = defineCommand<WorkerArgs>({
  command: 'worker',
  describe:
    'Run tournament chunks, training runs and accuracy chunks from a Redis queue (see eval/sweep/accuracy --queue)',
  builder: (y) =>
    y
      .option('inference', inferenceOption)
      .options({
        ...queueOptions('take jobs'),
        queue: {
          type: 'string',
          describe: `redis://[:PASSWORD@]HOST:PORT[/DB], or rediss:// for TLS (default: $${QUEUE_ENV}, which keeps a password out of ps)`,
        },
      })
      .option('concurrency', {
        type: 'number',
        default: 1,
        describe: 'jobs at once in this process (or start one worker per core)',
      })
      .option('allow-ext', {
        type: 'boolean',
        default: false,
        describe: 'run ext: agents (commands) that come through the queue',
      })
      .option('lock-duration', {
        type: 'number',
        default: 30_000,
        describe: 'ms a dead worker keeps its job before another one takes it',
      })
      .option('stalled-interval', {
        type: 'number',
        default: 30_000,
        describe: 'ms between checks for jobs of dead workers',
      })
      .option('max-job-memory', maxJobMemoryOption)
      .option('quiet', { type: 'boolean', default: false, describe: 'no line per job' })
      .example(`${QUEUE_ENV}=redis://:secret@10.0.0.5:6379 $0 worker`, 'one worker')
      .example(
        '$0 worker --queue rediss://:secret@redis.internal:6380 --concurrency 2',
        'over TLS',
      ) as unknown as Argv<WorkerArgs>,
  handler: runCommand(async (argv: WorkerArgs) => {
    for (const [name, value] of [
      ['--concurrency', argv.concurrency],
      ['--lock-duration', argv.lockDuration],
      ['--stalled-interval', argv.stalledInterval],
    ] as const) {
      if (!Number.isInteger(value) || value < 1) {
        throw new UsageError(`${name} must be a positive integer, got ${value}`);
      }
    }
    const maxJobMemory =
      argv.maxJobMemory === undefined
        ? undefined
        : memoryFromArg('--max-job-memory', argv.maxJobMemory);
    const url = queueUrl(argv, true) as string;
    const log = argv.quiet ? undefined : (line: string) => process.stderr.write(`${line}\n`);
    const worker = await startQueueWorker({
      url,
      concurrency: argv.concurrency,
      allowExt: argv.allowExt,
      lockDurationMs: argv.lockDuration,
      stalledIntervalMs: argv.stalledInterval,
      ...(maxJobMemory !== undefined ? { maxJobMemory } : {}),
      ...(log !== undefined ? { log } : {}),
      // Redis unreachable and back: said even with --quiet.
      status: (line: string) => process.stderr.write(`${line}\n`),
    });
    process.stderr.write(
      `worker on ${redactRedisUrl(url)} (ayoayo ${worker.version}, concurrency ${argv.concurrency}, up to ${memoryText(worker.maxJobMemory)} a job${argv.allowExt ? ', ext: allowed' : ''}); Ctrl-C stops after the jobs in hand\n`,
    );
    const { signal, dispose } = stopOnSignals();
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    process.stderr.write('stopping after the jobs in hand (Ctrl-C again stops at once)\n');
    await worker.close();
    dispose();
    // Dropped connections (Redis unreachable) leave BullMQ's reconnect timers behind: nothing
    // is left to do.
    process.exit(0);
  }),
});
