import type { Job } from 'bullmq';
import type { Agent } from '../agents/agent.ts';
import { createAgent, type JobFiles } from '../agents/spec.ts';
import { type AgentFactory, type Chunk, runChunk } from '../eval/chunk.ts';
import type { GameRecord } from '../eval/match.ts';
import { acceptJob } from './accept-job.ts';
import { type ChunkJob, chunkJobSchema } from './jobs.ts';
import type { PolicyCache } from './policy-transport.ts';
import { yieldingAgent } from './yielding-agent.ts';

/** How often a worker reports a chunk's games or positions done (the coordinator's progress bar). */
const PROGRESS_EVERY_MS = 200;

/**
 * The files a job carries (path -> sha256), fetched from the queue's store
 * and checked (PolicyCache): what its agents may read instead of the disk.
 */
export async function fetchJobFiles(
  policies: PolicyCache,
  files: Readonly<Record<string, string>>,
): Promise<JobFiles> {
  const texts: Record<string, string> = {};
  for (const [path, sha] of Object.entries(files)) {
    texts[path] = await policies.text(sha, `the file ${path}`);
  }
  return texts;
}

/**
 * How a worker makes a job's agents: as a local run makes them, except that
 * the files their specs name come from the job's `files` (a path the job did
 * not send is refused, whatever this machine's disk holds); each agent yields
 * to the event loop now and then.
 */
export function jobAgentFactory(files: JobFiles): AgentFactory {
  return async (spec, options): Promise<Agent> =>
    yieldingAgent(await createAgent(spec, { ...options, files }));
}

/**
 * A callback for each item a job finishes (a game, a position) that reports
 * the count done to the coordinator's progress bar, at most every
 * PROGRESS_EVERY_MS; a report that fails only costs the bar an update.
 */
export function progressReporter(job: Pick<Job, 'updateProgress'>): () => void {
  let done = 0;
  let reported = performance.now();
  return () => {
    done++;
    if (performance.now() - reported >= PROGRESS_EVERY_MS) {
      reported = performance.now();
      void job.updateProgress(done).catch(() => {});
    }
  };
}

/** What a worker is, for the jobs it accepts: its version, and whether it runs `ext:` agents. */
export interface JobWorker {
  readonly version: string;
  readonly allowExt: boolean;
}

/**
 * Plays one tournament chunk with eval's own runChunk, its agents made as a
 * local run makes them from the files the job carries (jobAgentFactory).
 */
export async function playChunkJob(
  job: Pick<Job, 'data' | 'updateProgress'>,
  policies: PolicyCache,
  worker: JobWorker,
): Promise<GameRecord[]> {
  const data: ChunkJob = acceptJob(
    chunkJobSchema,
    job.data,
    'tournament chunk job',
    worker,
    (d) => [d.chunk.labels.a, d.chunk.labels.b],
  );
  return runChunk(
    data.chunk as unknown as Chunk,
    progressReporter(job),
    jobAgentFactory(await fetchJobFiles(policies, data.files)),
  );
}
