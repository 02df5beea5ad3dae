import { existsSync, readFileSync } from 'node:fs';
import type { Options } from 'yargs';
import { UsageError } from './fail.ts';

/**
 * The environment variable that holds the queue's URL, so that a password in
 * it never shows in `ps` (a command line does, to every user of the machine).
 */
export const QUEUE_ENV = 'AYOAYO_QUEUE';

export interface QueueArgs {
  queue?: string;
  queueFile?: string;
}

/** The `--queue` and `--queue-file` options of eval, sweep and worker; `what` says what runs on the workers. */
export function queueOptions(what: string): Record<'queue' | 'queue-file', Options> {
  return {
    queue: {
      type: 'string',
      describe: `${what} through this Redis queue (redis://, rediss://); with no URL (--queue ''), the URL in $${QUEUE_ENV}, which keeps a password out of ps`,
    },
    'queue-file': {
      type: 'string',
      describe: `like --queue, with the URL read from this file (its first line)`,
    },
  };
}

/**
 * The queue URL a command was given: `--queue URL`; `--queue ''` (or a bare
 * `--queue`) for the URL in $AYOAYO_QUEUE; `--queue-file F` for the URL in F.
 * Without any of them: undefined, or for a command that needs a queue
 * (`required`, the worker) $AYOAYO_QUEUE, else a usage error.
 */
export function queueUrl(
  argv: QueueArgs,
  required: boolean,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (argv.queue !== undefined && argv.queueFile !== undefined) {
    throw new UsageError('give --queue or --queue-file, not both');
  }
  if (argv.queueFile !== undefined) {
    if (!existsSync(argv.queueFile))
      throw new UsageError(`--queue-file ${argv.queueFile} does not exist`);
    const url = readFileSync(argv.queueFile, 'utf8').split(/\r?\n/)[0]?.trim() ?? '';
    if (url === '') throw new UsageError(`--queue-file ${argv.queueFile} holds no URL`);
    return url;
  }
  if (argv.queue !== undefined && argv.queue.trim() !== '') return argv.queue.trim();
  if (argv.queue === undefined && !required) return undefined;
  const fromEnv = env[QUEUE_ENV]?.trim() ?? '';
  if (fromEnv !== '') return fromEnv;
  throw new UsageError(
    argv.queue !== undefined
      ? `--queue without a URL takes it from $${QUEUE_ENV}, which is not set`
      : `no queue given: pass --queue URL or --queue-file FILE, or set $${QUEUE_ENV}`,
  );
}

/**
 * An AbortSignal raised by the first SIGINT or SIGTERM, for a coordinator that
 * says what it did before it ends; a second signal ends the program at once.
 * Call the returned `dispose` when the waiting is over.
 */
export function stopOnSignals(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    controller.abort(signal);
  };
  // Not `once`: other handlers (the run lock's) leave the signal to a command that handles it.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * Prints a coordinator's status line (Redis away, what it waits for) on
 * stderr; in a terminal it clears the progress bar's line first, so that the
 * two never run into each other.
 */
export function writeStatusLine(line: string): void {
  process.stderr.write(`${process.stderr.isTTY === true ? '\r\x1b[K' : ''}${line}\n`);
}
