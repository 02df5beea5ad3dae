import { runChunk } from './chunk.ts';
import type { GameRecord } from './match.ts';
import { CHUNK_DONE, PROGRESS_INTERVAL_MS, type WorkerTask } from './worker-protocol.ts';

/**
 * The tournament's worker-thread task, piscina's entry point. Compiled, this
 * file is `dist/eval/worker.js` and piscina loads it directly; in the sources,
 * `eval/worker.js` registers tsx first and then delegates here.
 */
export default async function playChunkTask(task: WorkerTask): Promise<GameRecord[]> {
  // Agent kinds registered by higher layers (policy agents) in the main thread.
  for (const module of task.agentModules) await import(module);
  let unreported = 0;
  let lastReport = performance.now();
  const report = (): void => {
    if (unreported > 0) task.progress.postMessage(unreported);
    unreported = 0;
    lastReport = performance.now();
  };
  try {
    return await runChunk(task.chunk, () => {
      unreported++;
      if (performance.now() - lastReport >= PROGRESS_INTERVAL_MS) report();
    });
  } finally {
    report();
    task.progress.postMessage(CHUNK_DONE);
    task.progress.close();
  }
}
