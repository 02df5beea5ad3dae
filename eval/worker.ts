import { runChunk } from './chunk.ts';
import type { GameRecord } from './match.ts';
import { CHUNK_DONE, type WorkerTask } from './worker-protocol.ts';

/** The worker thread's task (loaded through worker.js, which registers tsx first). */
export async function playChunkTask(task: WorkerTask): Promise<GameRecord[]> {
  try {
    return await runChunk(task.chunk, (record) => task.progress.postMessage(record));
  } finally {
    task.progress.postMessage(CHUNK_DONE);
    task.progress.close();
  }
}
