/** zod's validation problems as the project's one-line error messages. */

/** The part of a zod error this needs (zod's `ZodError` fits). */
export interface IssueList {
  readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[];
}

/**
 * Formats zod issues as `field: message; field: message` (nested fields as
 * `a.b.0`). A problem with the value as a whole is prefixed with `root` when
 * given (e.g. 'options'), else shown alone. Past `limit` issues, the rest are
 * counted rather than dropped silently.
 */
export function describeIssues(
  error: IssueList,
  root?: string,
  limit = Number.POSITIVE_INFINITY,
): string {
  const shown = error.issues.slice(0, limit).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : root;
    return where === undefined ? issue.message : `${where}: ${issue.message}`;
  });
  const hidden = error.issues.length - shown.length;
  return hidden > 0 ? `${shown.join('; ')} (and ${hidden} more)` : shown.join('; ');
}
