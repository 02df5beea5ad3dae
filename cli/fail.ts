import type { CommandModule } from 'yargs';
import { AgentSpecError } from '../agents/spec.ts';
import { IllegalActionError, PositionError } from '../env/errors.ts';
import { EpisodeStateError } from '../env/gym/ayoayo-env.ts';
import { ObservationConfigError } from '../env/gym/observation.ts';
import { EnvOptionsError } from '../env/gym/options.ts';
import { RulesError } from '../env/rules.ts';
import {
  BackendError,
  CheckpointError,
  PolicyFileError,
  WeightDataError,
} from '../models/errors.ts';
import { NetworkSpecError } from '../models/search-agents.ts';
import { QueueError } from '../queue/errors.ts';
import { RunFolderError, TrainConfigError, TrainingDivergedError } from '../train/errors.ts';

/** An expected, user-facing error: printed as one line, without a stack trace. */
export class CliError extends Error {
  override name = 'CliError';
}

/** A mistake in the command line itself: printed with a hint to run --help. */
export class UsageError extends CliError {
  override name = 'UsageError';
}

/**
 * The errors that report a user's mistake or a fault of the machine rather
 * than a bug: bad input to the engine, the gym, agents, training configs, run
 * folders, policy files and checkpoints, and range checks of arguments.
 */
const USER_ERRORS: readonly (abstract new (...args: never[]) => Error)[] = [
  CliError,
  PositionError,
  IllegalActionError,
  RulesError,
  EnvOptionsError,
  ObservationConfigError,
  EpisodeStateError,
  AgentSpecError,
  NetworkSpecError,
  TrainConfigError,
  RunFolderError,
  TrainingDivergedError,
  CheckpointError,
  PolicyFileError,
  WeightDataError,
  BackendError,
  QueueError,
  RangeError,
];

/**
 * True for a user's mistake (one of USER_ERRORS, a yargs parse error, or a
 * system error such as ENOENT or EADDRINUSE); false for anything else, which
 * is a bug.
 */
export function isUserError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (USER_ERRORS.some((type) => err instanceof type)) return true;
  if (err.name === 'YError') return true;
  const code = (err as NodeJS.ErrnoException).code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}

/** Turns any thrown value into a single line of text. */
export function errorMessage(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const oneLine = raw
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join('; ');
  return oneLine.length > 0 ? oneLine : 'unknown error';
}

/** The one line printed for an error, without the `ayoayo: ` prefix. */
export function errorLine(err: unknown): string {
  const message = errorMessage(err);
  return err instanceof UsageError ? `${message} (run 'ayoayo --help' for usage)` : message;
}

/**
 * What stderr gets for an error: `ayoayo: <message>` on one line for a user's
 * mistake; for a bug, the same line followed by the stack trace, so that it
 * can be reported and found.
 */
export function errorReport(err: unknown): string {
  const line = `ayoayo: ${errorLine(err)}\n`;
  if (isUserError(err)) return line;
  const stack = err instanceof Error && err.stack !== undefined ? err.stack : String(err);
  return `${line}(this is a bug in ayoayo; the stack trace follows)\n${stack}\n`;
}

/** Prints the error (see errorReport) to stderr and exits with code 1. */
export function exitWithError(err: unknown): never {
  process.stderr.write(errorReport(err));
  process.exit(1);
}

/**
 * Wraps a command handler so that any error it throws (sync or async) is
 * reported on stderr with exit code 1: a user's mistake as one line
 * `ayoayo: <message>`, a bug with its stack trace after that line.
 *
 *   handler: runCommand(async (argv) => { ... })
 */
export function runCommand<A>(fn: (args: A) => unknown): (args: A) => Promise<void> {
  return async (args: A) => {
    try {
      await fn(args);
    } catch (err) {
      exitWithError(err);
    }
  };
}

/**
 * Declares a command with fully typed arguments and erases the argument types
 * so that it fits in the `commands: CommandModule[]` list of ./commands/index.ts.
 *
 *   export const showCommand = defineCommand<{ state: string }>({
 *     command: 'show <state>',
 *     describe: 'Print a board',
 *     builder: (y) => y.positional('state', { type: 'string', demandOption: true }),
 *     handler: runCommand(async (argv) => { ... }),
 *   });
 */
export function defineCommand<U>(command: CommandModule<object, U>): CommandModule {
  return command as unknown as CommandModule;
}
