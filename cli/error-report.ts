/**
 * How the command line reports an error: a user's mistake (a typed error of
 * env, solve, agents, eval, models, train or queue, a range check, a yargs parse error, a
 * system error) as one line, a bug with its stack trace.
 */
import { AgentSpecError } from '../agents/spec.ts';
import { IllegalActionError, PositionError } from '../env/errors.ts';
import { EpisodeStateError } from '../env/gym/ayoayo-env.ts';
import { ObservationConfigError } from '../env/gym/observation.ts';
import { EnvOptionsError } from '../env/gym/options.ts';
import { RulesError } from '../env/rules.ts';
import { AccuracySetError } from '../eval/accuracy/accuracy-set.ts';
import { FolderLockError } from '../files/folder-lock.ts';
import { BoundedReadError } from '../files/read-bounded.ts';
import {
  BackendError,
  CheckpointError,
  InferenceError,
  NetworkSpecError,
  PolicyFileError,
  WeightDataError,
} from '../models/errors.ts';
import { QueueError } from '../queue/errors.ts';
import { BookBuildStopped } from '../solve/book/cache/build-book.ts';
import { BookFileError } from '../solve/book/format.ts';
import { SolveOptionsError } from '../solve/options.ts';
import { GameMovesError } from '../solve/review.ts';
import { RunFolderError, TrainConfigError, TrainingDivergedError } from '../train/errors.ts';
import { CliError, errorLine } from './errors.ts';

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
  FolderLockError,
  TrainingDivergedError,
  CheckpointError,
  PolicyFileError,
  WeightDataError,
  BackendError,
  InferenceError,
  QueueError,
  SolveOptionsError,
  BookFileError,
  BookBuildStopped,
  GameMovesError,
  AccuracySetError,
  BoundedReadError,
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
