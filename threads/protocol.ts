import type { MessagePort } from 'node:worker_threads';
import type { ThreadCall } from './job.ts';

/** A job sent to a thread: its handler, its input, the calls to make first, and the port its progress is reported on. */
export interface ThreadTask {
  readonly job: ThreadCall;
  readonly input: unknown;
  /**
   * Calls the thread makes once, before its first job that names them (the
   * agent kinds registered in the main thread, registered again there).
   */
  readonly setup: readonly ThreadCall[];
  readonly progress: MessagePort;
}

/** Posted on the progress port after a job's last count. */
export const JOB_DONE = 'job-done';

/**
 * What the progress port carries: counts of things finished since the last
 * message (at most one message per PROGRESS_INTERVAL_MS, so that fast ones do
 * not pay for a message each), then JOB_DONE. The results themselves come
 * back as the task's result.
 */
export type ProgressMessage = number | typeof JOB_DONE;

export const PROGRESS_INTERVAL_MS = 100;
