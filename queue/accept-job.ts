import { UnrecoverableError } from 'bullmq';
import type { z } from 'zod';
import { specRunsCommands } from '../agents/spec.ts';
import { parseJobData } from './jobs.ts';

/**
 * Refuses a job stamped with another ayoayo version than `version` (this
 * worker's): its games could differ. Jobs go to the queue of their version,
 * so only a job put there by hand gets here. Checked before the data is
 * parsed, whose form may differ too.
 */
export function refuseOtherVersion(data: unknown, what: string, version: string): void {
  const theirs = (data as { version?: unknown } | null)?.version;
  if (theirs === version) return;
  const named = typeof theirs === 'string' ? `ayoayo ${theirs.slice(0, 100)}` : 'no version';
  throw new UnrecoverableError(
    `this worker runs ayoayo ${version} and refuses ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what} of ${named}: another version may play other games; run the same version on the coordinator and every worker`,
  );
}

/** Refuses the specs that run commands (`ext:`) unless the worker was started with --allow-ext. */
export function refuseExternal(specs: readonly string[], allowExt: boolean): void {
  if (allowExt) return;
  for (const spec of specs) {
    if (specRunsCommands(spec)) {
      throw new UnrecoverableError(
        `this worker refuses the external engine '${spec}' from the queue: start it with --allow-ext to run ext: agents`,
      );
    }
  }
}

/**
 * A job's data: its version checked, then validated, with the external
 * engines it names refused unless `allowExt`; a job that is not valid fails
 * at once (BullMQ's UnrecoverableError: no retry would make it valid).
 */
export function acceptJob<S extends z.ZodType>(
  schema: S,
  data: unknown,
  what: string,
  { version, allowExt }: { readonly version: string; readonly allowExt: boolean },
  specsOf: (data: z.output<S>) => readonly string[],
): z.output<S> {
  try {
    refuseOtherVersion(data, what, version);
    const parsed = parseJobData(schema, data, what);
    refuseExternal(specsOf(parsed), allowExt);
    return parsed;
  } catch (err) {
    throw err instanceof UnrecoverableError
      ? err
      : new UnrecoverableError(String((err as Error).message));
  }
}
