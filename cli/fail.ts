import type { CommandModule } from 'yargs';

// The errors live in ./errors.ts, which ./error-report.ts imports too; they are
// re-exported here for the commands, which import everything they need to fail from here.
export { CliError, errorLine, errorMessage, UsageError } from './errors.ts';

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
