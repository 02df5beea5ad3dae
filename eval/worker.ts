import { runAccuracyChunk } from './accuracy/chunk.ts';
import { playFixtureGame } from './accuracy/fixture-game.ts';
import { solveBookChunkHere } from './book-chunk.ts';
import { type AgentFactory, agentFactoryWith, runChunk } from './chunk.ts';
import { runReviewJob } from './review-job.ts';
import {
  CHUNK_DONE,
  type PoolJob,
  type PoolJobs,
  PROGRESS_INTERVAL_MS,
  type WorkerTask,
} from './worker-protocol.ts';

/**
 * The worker-thread task of eval's pool (pool.ts), piscina's entry point.
 * Compiled, this file is `dist/eval/worker.js` and piscina loads it directly;
 * in the sources, `eval/worker.js` registers tsx first and then delegates here.
 */
export default async function runPoolTask(
  task: WorkerTask,
): Promise<PoolJobs[PoolJob['kind']]['output']> {
  // Agent kinds registered by higher layers (policy agents) in the main thread.
  for (const { module, register } of task.agentKinds) {
    const registering: unknown = ((await import(module)) as Record<string, unknown>)[register];
    if (typeof registering !== 'function') {
      throw new Error(`${module} has no function ${register} to register agent kinds with`);
    }
    registering();
  }
  let unreported = 0;
  let lastReport = performance.now();
  const report = (): void => {
    if (unreported > 0) task.progress.postMessage(unreported);
    unreported = 0;
    lastReport = performance.now();
  };
  const count = (): void => {
    unreported++;
    if (performance.now() - lastReport >= PROGRESS_INTERVAL_MS) report();
  };
  try {
    return await run(task.job, count, agentFactoryWith(task.files));
  } finally {
    report();
    task.progress.postMessage(CHUNK_DONE);
    task.progress.close();
  }
}

function run(
  job: PoolJob,
  count: () => void,
  makeAgent: AgentFactory,
): Promise<PoolJobs[PoolJob['kind']]['output']> {
  switch (job.kind) {
    case 'games':
      return runChunk(job.input, count, makeAgent);
    case 'accuracy':
      return runAccuracyChunk(job.input, count, makeAgent);
    case 'fixture-game':
      return playFixtureGame(job.input, count);
    case 'book-leaves':
      return Promise.resolve(solveBookChunkHere(job.input, count));
    case 'review':
      return Promise.resolve(runReviewJob(job.input, count));
  }
}
