import type { Job, JobsOptions } from 'bullmq';
import { QueueJobError, QueueStoppedError, QueueTimeoutError } from './errors.ts';
import { JOB_ATTEMPTS } from './jobs.ts';
import type { QueueClients } from './queue-clients.ts';
import { durationText } from './queue-status.ts';

/** Events can be missed across a reconnect; pending jobs are also looked at this often. */
const RECONCILE_EVERY_MS = 3000;
/** With no job finished for this long, the coordinator says what it waits for. */
export const WAITING_LINE_EVERY_MS = 60_000;

/** Finished jobs (and so their results) are kept this long: a restarted coordinator finds them. */
export const KEEP_JOBS_SECONDS = 7 * 24 * 3600;

/** How every ayoayo job is enqueued: its id, retries, and results kept for a restarted coordinator. */
function jobOptions(id: string, keepSeconds: number): JobsOptions {
  return {
    jobId: id,
    attempts: JOB_ATTEMPTS,
    backoff: { type: 'fixed', delay: 1000 },
    removeOnComplete: { age: keepSeconds },
    removeOnFail: { age: keepSeconds },
  };
}

/** One job of a coordinator: what a worker does (`name`) with what (`data`). */
export interface QueuedJob {
  readonly name: string;
  readonly data: unknown;
}

export interface FollowJobsOptions {
  /** The queue of the coordinator's version, its events (ready), store and status. */
  readonly clients: QueueClients;
  /** The jobs' ids, in the caller's order (the same work always has the same id). */
  readonly ids: readonly string[];
  /** Job i, enqueued as ids[i], and enqueued again under that id if Redis loses it. */
  readonly jobs: readonly QueuedJob[];
  /** Restores what the jobs need besides themselves (shared policies) before they are enqueued again. */
  readonly beforeRequeue?: () => Promise<void>;
  /** What a job is, in messages: `chunk`, `run`. */
  readonly noun: string;
  /** Names job i in errors. */
  readonly describe: (index: number) => string;
  /** What is done so far, for the line printed when the coordinator is stopped. */
  readonly done?: (finished: number) => string;
  /** How to collect the rest after a stop (default: run the same command again). */
  readonly goOn?: string;
  /** How long finished jobs (and their results) stay in Redis (default KEEP_JOBS_SECONDS). */
  readonly keepSeconds?: number;
  /** Takes job i's result (once, however often it ran); throws if it is not valid. */
  readonly onResult: (index: number, value: unknown) => void;
  /** A running job's progress, as its worker reported it. */
  readonly onProgress?: (index: number, progress: unknown) => void;
  /** Status lines: no worker, jobs enqueued again, what it waits for. */
  readonly log: (line: string) => void;
  /** Stops following (the jobs stay queued: a coordinator started later picks them up). */
  readonly signal?: AbortSignal | undefined;
  /** With no job finished for this long, say what it waits for (default WAITING_LINE_EVERY_MS). */
  readonly waitingLineEveryMs?: number | undefined;
  /**
   * With no job running or finished for this long, fail with a
   * QueueTimeoutError (nobody serves the queue); without it, wait for ever.
   */
  readonly timeoutMs?: number | undefined;
}

/**
 * Enqueues the jobs (ids that exist already are left as they are: a restarted
 * coordinator adds nothing) and waits until every one has completed, taking
 * each result once. Jobs that finished before are taken as they are, and
 * failed ones get another round of attempts; a job that fails its attempts now
 * ends the wait with its error (QueueJobError). A job that Redis no longer
 * knows (it restarted without its data) is enqueued again from the
 * coordinator's own record, under the same id, so nothing is counted twice.
 * Stopped through `signal`, it rejects with QueueStoppedError saying what was
 * done and how to go on.
 */
export async function followJobs(options: FollowJobsOptions): Promise<void> {
  const { ids, log } = options;
  const { queue, store, version } = options.clients;
  const enqueue = (indices: readonly number[]): Promise<unknown> =>
    queue.addBulk(
      indices.map((i) => {
        const job = options.jobs[i] as QueuedJob;
        const keep = options.keepSeconds ?? KEEP_JOBS_SECONDS;
        return { name: job.name, data: job.data, opts: jobOptions(ids[i] as string, keep) };
      }),
    );
  // Jobs an earlier coordinator saw fail get another round of attempts; only those: a job
  // that fails while this coordinator waits ends the wait with its reason.
  await Promise.all(
    ids.map(async (id) => {
      if ((await queue.getJobState(id)) === 'failed')
        await (await queue.getJob(id))?.retry('failed');
    }),
  );
  await enqueue(ids.map((_, i) => i));
  if ((await queue.getWorkersCount()) === 0) {
    log(
      `no worker of ayoayo ${version} is connected yet: the ${options.noun}s start when one is (ayoayo worker --queue URL)`,
    );
  }
  await options.clients.staleWorkers.look(store);
  return waitForJobs(options, enqueue);
}

function waitForJobs(
  options: FollowJobsOptions,
  enqueue: (indices: readonly number[]) => Promise<unknown>,
): Promise<void> {
  const { ids, log, noun } = options;
  const { queue, events, status, store, staleWorkers } = options.clients;
  const waitingEvery = options.waitingLineEveryMs ?? WAITING_LINE_EVERY_MS;
  const indexOf = new Map(ids.map((id, i) => [id, i]));
  const taken = new Set<number>();
  let lastTaken = Date.now();
  let lastWaitingLine = Date.now();
  // When a worker was last seen at work: a job running or finished.
  let lastServed = Date.now();
  let lastWorkers: number | null = null;
  return new Promise<void>((resolve, reject) => {
    let finished = false;
    let sleeper: NodeJS.Timeout | undefined;
    let wake: (() => void) | undefined;
    const finish = (err: Error | null): void => {
      if (finished) return;
      finished = true;
      clearTimeout(sleeper);
      wake?.();
      options.signal?.removeEventListener('abort', onAbort);
      events.off('completed', onEvent);
      events.off('failed', onEvent);
      events.off('progress', onProgressEvent);
      if (err !== null) reject(err);
      else resolve();
    };
    const fail = (err: unknown): void =>
      finish(err instanceof Error ? err : new Error(String(err)));

    /** Looks at job i; returns its state ('unknown': Redis does not have it). */
    const look = async (i: number): Promise<string> => {
      if (taken.has(i) || finished) return 'taken';
      const id = ids[i] as string;
      // The state first: a job read while it runs would have no result yet.
      const state = await queue.getJobState(id);
      if (state !== 'completed' && state !== 'failed') return state;
      const job: Job | undefined = await queue.getJob(id);
      if (job === undefined || taken.has(i) || finished) return state;
      if (state === 'completed') {
        taken.add(i);
        lastTaken = Date.now();
        lastServed = lastTaken;
        options.onResult(i, job.returnvalue);
        if (taken.size === ids.length) finish(null);
      } else {
        finish(
          new QueueJobError(
            `${options.describe(i)} failed after ${job.attemptsMade} attempt(s): ${job.failedReason}`,
          ),
        );
      }
      return state;
    };

    const onEvent = ({ jobId }: { jobId: string }): void => {
      const i = indexOf.get(jobId);
      if (i !== undefined) look(i).catch(fail);
    };
    const onProgressEvent = ({ jobId, data }: { jobId: string; data: unknown }): void => {
      const i = indexOf.get(jobId);
      if (i !== undefined && !taken.has(i)) options.onProgress?.(i, data);
    };
    events.on('completed', onEvent);
    events.on('failed', onEvent);
    events.on('progress', onProgressEvent);

    /** Looks at every pending job; enqueues again the ones Redis lost. Waits while Redis is down. */
    const pass = async (): Promise<void> => {
      const pending = ids.map((_, i) => i).filter((i) => !taken.has(i));
      const states = await Promise.all(pending.map((i) => look(i)));
      status.succeeded();
      if (finished) return;
      await staleWorkers.look(store);
      const lost = pending.filter((_, k) => states[k] === 'unknown');
      if (lost.length > 0) {
        log(
          `the queue lost ${lost.length} of the ${ids.length} ${noun}s (Redis restarted without its data?): enqueued them again`,
        );
        await options.beforeRequeue?.();
        await enqueue(lost);
      }
      const now = Date.now();
      const running = states.filter((s) => s === 'active').length;
      if (running > 0) lastServed = now;
      const timeUp = options.timeoutMs !== undefined && now - lastServed >= options.timeoutMs;
      if (timeUp || (now - lastTaken >= waitingEvery && now - lastWaitingLine >= waitingEvery)) {
        lastWaitingLine = now;
        lastWorkers = await queue.getWorkersCount();
        if (!timeUp) {
          log(
            `waiting for ${ids.length - taken.size} of ${ids.length} ${noun}s (${running} running, ${lastWorkers} worker(s) connected; none finished for ${durationText(now - lastTaken)})`,
          );
        }
      }
    };

    /** Fails the wait once nobody has served the queue for `timeoutMs` (Redis away counts too). */
    const checkTimeout = (): void => {
      const limit = options.timeoutMs;
      if (limit === undefined || finished || Date.now() - lastServed < limit) return;
      const workers = status.down
        ? 'the queue is unreachable'
        : `${lastWorkers ?? 0} worker(s) connected`;
      finish(
        new QueueTimeoutError(
          `no worker served the queue for ${durationText(Date.now() - lastServed)} (the timeout is ${durationText(limit)}): ${ids.length - taken.size} of ${ids.length} ${noun}s waiting, ${workers}; start workers (ayoayo worker --queue URL)${options.goOn !== undefined ? `, then ${options.goOn}` : ''}`,
        ),
      );
    };

    const loop = async (): Promise<void> => {
      while (!finished) {
        try {
          await pass();
        } catch (err) {
          // A result that fails its checks ends the wait; Redis being away does not.
          if (!status.down) throw err;
        }
        checkTimeout();
        if (finished) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
          sleeper = setTimeout(resolve, RECONCILE_EVERY_MS);
        });
      }
    };

    const onAbort = (): void => {
      const done = options.done?.(taken.size) ?? `${taken.size} of ${ids.length} ${noun}s`;
      finish(
        new QueueStoppedError(
          `the coordinator was stopped with ${done} finished; the other jobs stay queued and the workers go on with them: ${options.goOn ?? 'run the same command again'} to collect them (finished jobs are kept ${keptText(options.keepSeconds ?? KEEP_JOBS_SECONDS)})`,
          options.signal?.reason === 'SIGTERM' ? 143 : 130,
        ),
      );
    };
    if (options.signal?.aborted === true) onAbort();
    options.signal?.addEventListener('abort', onAbort);
    if (ids.length === 0) finish(null);
    loop().catch(fail);
  });
}

/** `7 days`, `1 day`, `3 hours`. */
function keptText(seconds: number): string {
  const days = seconds / 86_400;
  if (Number.isInteger(days)) return `${days} day${days === 1 ? '' : 's'}`;
  const hours = Math.round(seconds / 3600);
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

/**
 * A coordinator's job results, each taken once, and the count of items
 * (games, positions) done for a progress bar: every finished job's items and
 * what the running ones reported. A retried job starts its count again: the
 * count never goes back.
 */
export class JobResults<T> {
  readonly #results = new Map<number, T>();
  readonly #progress = new Map<number, number>();
  #reported = 0;

  /** `sizes[i]`: items in job i; `onCount` hears of items newly done. */
  constructor(
    private readonly sizes: readonly number[],
    private readonly onCount: (count: number) => void,
  ) {}

  /** Job i's result (checked by the caller). */
  take(index: number, result: T): void {
    this.#results.set(index, result);
    this.#report();
  }

  /** Job i's progress as its worker reported it: items done (anything else is ignored). */
  progress(index: number, data: unknown): void {
    if (typeof data !== 'number') return;
    this.#progress.set(index, data);
    this.#report();
  }

  /** Every job's result, in job order (call once all are taken). */
  all(): T[] {
    return this.sizes.map((_, i) => this.#results.get(i) as T);
  }

  /** The results taken so far. */
  taken(): T[] {
    return [...this.#results.values()];
  }

  #report(): void {
    let done = 0;
    for (const [i, size] of this.sizes.entries()) {
      done += this.#results.has(i) ? size : Math.min(this.#progress.get(i) ?? 0, size);
    }
    if (done > this.#reported) {
      this.onCount(done - this.#reported);
      this.#reported = done;
    }
  }
}
