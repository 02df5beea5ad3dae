import { watchEngineWorkers } from '../agents/engine-registry.ts';
import { agentKindSources } from '../agents/spec.ts';
import type { ThreadJob } from '../threads/job.ts';
import { runAllOnThreads, ThreadPool } from '../threads/pool.ts';

/**
 * A thread pool whose threads make agents: each registers the agent kinds
 * registered in this one (agentKindSources) before its first job, and this
 * thread watches the external engines they start, so that none outlives it.
 */
export function agentThreadPool(threads: number): ThreadPool {
  watchEngineWorkers();
  return new ThreadPool(threads, { setup: agentSetup() });
}

/** runAllOnThreads on threads that make agents (see agentThreadPool). */
export function runAllOnAgentThreads<I, O>(
  job: ThreadJob<I, O>,
  inputs: readonly I[],
  threads: number,
  onCount: (count: number) => void,
): Promise<O[]> {
  watchEngineWorkers();
  return runAllOnThreads(job, inputs, threads, onCount, { setup: agentSetup() });
}

/** The registrations of agent kinds made in this thread, as calls for a thread to make. */
function agentSetup(): { module: string; name: string }[] {
  return agentKindSources().map(({ module, register }) => ({ module, name: register }));
}
