// The command line's own errors, and how any error becomes one line of text.

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
  // A line that ends in a colon introduces the next one ("Invalid values:"
  // then "Argument: ..."), so it is joined with a space rather than a semicolon.
  const oneLine = raw
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .reduce(
      (text, line) => (text === '' ? line : `${text}${text.endsWith(':') ? ' ' : '; '}${line}`),
      '',
    );
  return oneLine.length > 0 ? oneLine : 'unknown error';
}

/** The one line printed for an error, without the `ayoayo: ` prefix. */
export function errorLine(err: unknown): string {
  const message = errorMessage(err);
  return err instanceof UsageError ? `${message} (run 'ayoayo --help' for usage)` : message;
}
