import type { Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import type { Agent } from '../agents/agent.ts';
import { type CreateAgentOptions, createAgent, parseAgentSpec } from '../agents/spec.ts';
import { resolveRules } from '../env/index.ts';
import { type Chunk, runChunk } from '../eval/chunk.ts';
import type { GameRecord } from '../eval/match.ts';
// A worker plays every kind of agent a chunk may name, those that load a network included.
import '../models/policy-kind.ts';
import { type ChunkJob, chunkJobSchema, parseJobData } from './jobs.ts';
import type { PolicyCache } from './policy-transport.ts';
import { yieldingAgent } from './yielding-agent.ts';

/** How often a worker reports a chunk's games done (the coordinator's progress bar). */
const PROGRESS_EVERY_MS = 200;

/** Refuses `ext:` specs (commands) unless the worker was started with --allow-ext. */
export function refuseExternal(specs: readonly string[], allowExt: boolean): void {
  if (allowExt) return;
  for (const spec of specs) {
    if (parseAgentSpec(spec).kind === 'ext') {
      throw new UnrecoverableError(
        `this worker refuses the external engine '${spec}' from the queue: start it with --allow-ext to run ext: agents`,
      );
    }
  }
}

/**
 * Plays one tournament chunk with eval's own runChunk. Policies come from the
 * queue's store (validated, named by their original spec); any other spec is
 * made as a local run makes it.
 */
export async function playChunkJob(
  job: Pick<Job, 'data' | 'updateProgress'>,
  policies: PolicyCache,
  allowExt: boolean,
): Promise<GameRecord[]> {
  let data: ChunkJob;
  try {
    data = parseJobData(chunkJobSchema, job.data, 'tournament chunk job');
    refuseExternal([data.chunk.labels.a, data.chunk.labels.b], allowExt);
  } catch (err) {
    throw err instanceof UnrecoverableError
      ? err
      : new UnrecoverableError(String((err as Error).message));
  }
  const makeAgent = async (spec: string, options: CreateAgentOptions): Promise<Agent> => {
    const sha = data.policies[spec];
    if (sha !== undefined) {
      return yieldingAgent(await policies.agent(sha, spec, resolveRules(options.rules)));
    }
    if (parseAgentSpec(spec).kind === 'policy') {
      throw new UnrecoverableError(`the policy file of '${spec}' was not sent with the job`);
    }
    return yieldingAgent(await createAgent(spec, options));
  };
  let done = 0;
  let reported = performance.now();
  const records = await runChunk(
    data.chunk as unknown as Chunk,
    () => {
      done++;
      if (performance.now() - reported >= PROGRESS_EVERY_MS) {
        reported = performance.now();
        void job.updateProgress(done).catch(() => {});
      }
    },
    makeAgent,
  );
  return records;
}
