// Jobs of test/threads/pool.test.ts, declared as a layer declares its own: by this module's URL.
import { threadJob } from '../../threads/job.ts';

let setUps = 0;

/** A setup call: counts how often this thread was set up. */
export function setUp(): void {
  setUps++;
}

/** Counts `n` things done, then answers what it was given and how often its thread was set up. */
export async function countTo(input: { readonly n: number }, count: () => void) {
  for (let i = 0; i < input.n; i++) {
    count();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { n: input.n, setUps };
}

export const COUNT_JOB = threadJob(import.meta.url, countTo);

/** Fails, as a handler that throws does. */
export function failing(input: { readonly why: string }): never {
  throw new Error(input.why);
}

export const FAILING_JOB = threadJob(import.meta.url, failing);
