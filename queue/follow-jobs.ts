import type { Job, Queue, QueueEvents } from 'bullmq';

/** Events can be missed across a reconnect; pending jobs are also looked at this often. */
const RECONCILE_EVERY_MS = 3000;

export interface FollowJobsOptions {
  readonly queue: Queue;
  /** Ready (waitUntilReady) before the jobs are added, so that no event is missed. */
  readonly events: QueueEvents;
  /** The jobs' ids, in the caller's order. */
  readonly ids: readonly string[];
  /** Names job i in errors. */
  readonly describe: (index: number) => string;
  /** Takes job i's result (once, however often it ran); throws if it is not valid. */
  readonly onResult: (index: number, value: unknown) => void;
  /** A running job's progress, as its worker reported it. */
  readonly onProgress?: (index: number, progress: unknown) => void;
  /** Stops following (the jobs stay queued: a coordinator started later picks them up). */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Waits until every job has completed, taking each result once. Jobs that
 * finished before (a restarted coordinator) are taken as they are, and failed
 * ones get another round of attempts; a job that fails its attempts now ends
 * the wait with its error.
 */
export function followJobs(options: FollowJobsOptions): Promise<void> {
  const { queue, events, ids } = options;
  const indexOf = new Map(ids.map((id, i) => [id, i]));
  const taken = new Set<number>();
  return new Promise<void>((resolve, reject) => {
    let finished = false;
    const finish = (err: Error | null): void => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      options.signal?.removeEventListener('abort', onAbort);
      events.removeAllListeners();
      if (err !== null) reject(err);
      else resolve();
    };
    const look = async (i: number, retryFailed: boolean): Promise<void> => {
      if (taken.has(i) || finished) return;
      const id = ids[i] as string;
      // The state first: a job read while it runs would have no result yet.
      const state = await queue.getJobState(id);
      if (state !== 'completed' && state !== 'failed') return;
      const job: Job | undefined = await queue.getJob(id);
      if (job === undefined || taken.has(i) || finished) return;
      if (state === 'completed') {
        taken.add(i);
        options.onResult(i, job.returnvalue);
        if (taken.size === ids.length) finish(null);
      } else if (retryFailed) {
        await job.retry('failed');
      } else {
        finish(
          new Error(
            `${options.describe(i)} failed after ${job.attemptsMade} attempt(s): ${job.failedReason}`,
          ),
        );
      }
    };
    const lookSafely = (i: number, retryFailed = false): void => {
      look(i, retryFailed).catch((err: unknown) =>
        finish(err instanceof Error ? err : new Error(String(err))),
      );
    };
    const onEvent = ({ jobId }: { jobId: string }): void => {
      const i = indexOf.get(jobId);
      if (i !== undefined) lookSafely(i);
    };
    events.on('completed', onEvent);
    events.on('failed', onEvent);
    events.on('progress', ({ jobId, data }) => {
      const i = indexOf.get(jobId);
      if (i !== undefined && !taken.has(i)) options.onProgress?.(i, data);
    });
    const timer = setInterval(() => {
      for (let i = 0; i < ids.length; i++) lookSafely(i);
    }, RECONCILE_EVERY_MS);
    const onAbort = (): void =>
      finish(new Error('the coordinator was stopped; its jobs stay queued'));
    if (options.signal?.aborted === true) onAbort();
    options.signal?.addEventListener('abort', onAbort);
    if (ids.length === 0) finish(null);
    for (let i = 0; i < ids.length; i++) lookSafely(i, true);
  });
}
