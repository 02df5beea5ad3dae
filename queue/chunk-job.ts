import type { Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import type { z } from 'zod';
import type { Agent } from '../agents/agent.ts';
import { type CreateAgentOptions, createAgent, parseAgentSpec } from '../agents/spec.ts';
import { resolveRules } from '../env/index.ts';
import { type AgentFactory, type Chunk, runChunk } from '../eval/chunk.ts';
import type { GameRecord } from '../eval/match.ts';
// A worker plays every kind of agent a chunk may name, those that load a network included.
import '../models/policy-kind.ts';
import { type ChunkJob, chunkJobSchema, parseJobData } from './jobs.ts';
import type { PolicyCache } from './policy-transport.ts';
import { yieldingAgent } from './yielding-agent.ts';

/** How often a worker reports a chunk's games or positions done (the coordinator's progress bar). */
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
 * A job's data, validated, with the external engines it names refused unless
 * `allowExt`; a job that is not valid fails at once (BullMQ's
 * UnrecoverableError: no retry would make it valid).
 */
export function acceptJob<S extends z.ZodType>(
  schema: S,
  data: unknown,
  where: string,
  allowExt: boolean,
  specsOf: (data: z.output<S>) => readonly string[],
): z.output<S> {
  try {
    const parsed = parseJobData(schema, data, where);
    refuseExternal(specsOf(parsed), allowExt);
    return parsed;
  } catch (err) {
    throw err instanceof UnrecoverableError
      ? err
      : new UnrecoverableError(String((err as Error).message));
  }
}

/**
 * How a worker makes a job's agents: `policy:` specs from the policy files the
 * job names by sha256 (fetched from the queue's store), any other spec as a
 * local run makes it; each agent yields to the event loop now and then.
 */
export function jobAgentFactory(
  policies: PolicyCache,
  shas: Readonly<Record<string, string>>,
): AgentFactory {
  return async (spec: string, options: CreateAgentOptions): Promise<Agent> => {
    const sha = shas[spec];
    if (sha !== undefined) {
      return yieldingAgent(await policies.agent(sha, spec, resolveRules(options.rules)));
    }
    if (parseAgentSpec(spec).kind === 'policy') {
      throw new UnrecoverableError(`the policy file of '${spec}' was not sent with the job`);
    }
    return yieldingAgent(await createAgent(spec, options));
  };
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
  const data: ChunkJob = acceptJob(
    chunkJobSchema,
    job.data,
    'tournament chunk job',
    allowExt,
    (d) => [d.chunk.labels.a, d.chunk.labels.b],
  );
  return runChunk(
    data.chunk as unknown as Chunk,
    progressReporter(job),
    jobAgentFactory(policies, data.policies),
  );
}
