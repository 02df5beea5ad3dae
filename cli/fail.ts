import type { CommandModule } from 'yargs';
/** An expected, user-facing error: printed as one line, without a stack trace. */
export class CliError extends Error {
  override name = 'CliError';
}

/** A mistake in the command line itself: printed with a hint to run --help. */
export class UsageError extends CliError {
  override name = 'UsageError';
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
 * Prints the error (see errorReport in ./error-report.ts) to stderr and exits
 * with code 1 (or the error's own `exitCode`). The report knows every typed error of the layers below, which
 * loads zod and more: it is imported only when an error is to be printed, so
 * that `ayoayo --help` stays light.
 */
export async function exitWithError(err: unknown): Promise<never> {
  const { errorReport } = await import('./error-report.ts');
  process.stderr.write(errorReport(err));
  // An error may carry the code to end with (a coordinator stopped by a signal: 130).
  const code = (err as { exitCode?: unknown } | null)?.exitCode;
  process.exit(typeof code === 'number' && Number.isInteger(code) && code > 0 ? code : 1);
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
      await exitWithError(err);
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
