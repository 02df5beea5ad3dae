import type { Job } from 'bullmq';
import { type AccuracyAnswer, runAccuracyChunk } from '../eval/accuracy/chunk.ts';
import { acceptJob, jobAgentFactory } from './chunk-job.ts';
import { type AccuracyJob, accuracyJobSchema } from './jobs.ts';
import type { PolicyCache } from './policy-transport.ts';

/** How often a worker reports a chunk's positions done (the coordinator's progress bar). */
const PROGRESS_EVERY_MS = 200;

/**
 * Answers one chunk of an accuracy benchmark with eval's own
 * runAccuracyChunk; agents are made as for a tournament chunk.
 */
export async function runAccuracyJob(
  job: Pick<Job, 'data' | 'updateProgress'>,
  policies: PolicyCache,
  allowExt: boolean,
): Promise<AccuracyAnswer[]> {
  const data: AccuracyJob = acceptJob(
    accuracyJobSchema,
    job.data,
    'accuracy chunk job',
    allowExt,
    (d) => [d.chunk.spec],
  );
  let done = 0;
  let reported = performance.now();
  return runAccuracyChunk(
    data.chunk,
    () => {
      done++;
      if (performance.now() - reported >= PROGRESS_EVERY_MS) {
        reported = performance.now();
        void job.updateProgress(done).catch(() => {});
      }
    },
    jobAgentFactory(policies, data.policies),
  );
}
