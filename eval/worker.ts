import { runChunk } from './chunk.ts';
import type { GameRecord } from './match.ts';
import { CHUNK_DONE, PROGRESS_INTERVAL_MS, type WorkerTask } from './worker-protocol.ts';

/** The worker thread's task (loaded through worker.js, which registers tsx first). */
export async function playChunkTask(task: WorkerTask): Promise<GameRecord[]> {
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
