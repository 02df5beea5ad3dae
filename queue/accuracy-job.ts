import type { Job } from 'bullmq';
import { type AccuracyAnswer, runAccuracyChunk } from '../eval/accuracy/chunk.ts';
import { acceptJob } from './accept-job.ts';
import { fetchJobFiles, type JobWorker, jobAgentFactory, progressReporter } from './chunk-job.ts';
import { type AccuracyJob, accuracyJobSchema } from './jobs.ts';
import type { PolicyCache } from './policy-transport.ts';

/**
 * Answers one chunk of an accuracy benchmark with eval's own
 * runAccuracyChunk; agents are made as for a tournament chunk.
 */
export async function runAccuracyJob(
  job: Pick<Job, 'data' | 'updateProgress'>,
  policies: PolicyCache,
  worker: JobWorker,
): Promise<AccuracyAnswer[]> {
  const data: AccuracyJob = acceptJob(
    accuracyJobSchema,
    job.data,
    'accuracy chunk job',
    worker,
    (d) => [d.chunk.spec],
  );
  return runAccuracyChunk(
    data.chunk,
    progressReporter(job),
    jobAgentFactory(await fetchJobFiles(policies, data.files)),
  );
}
