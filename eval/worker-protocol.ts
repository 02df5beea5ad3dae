import type { MessagePort } from 'node:worker_threads';
import type { Chunk } from './chunk.ts';

/** A chunk sent to a worker thread, with the port its progress is reported on. */
export interface WorkerTask {
  readonly chunk: Chunk;
  readonly progress: MessagePort;
  /** Modules registering agent kinds (agentKindModules()), imported before the chunk is played. */
  readonly agentModules: readonly string[];
}

/** Posted on the progress port after a chunk's last game. */
export const CHUNK_DONE = 'chunk-done';

/**
 * What the progress port carries: counts of games finished since the last
 * message (at most one message per PROGRESS_INTERVAL_MS, so that fast games do
 * not pay for a message each), then CHUNK_DONE. The records themselves come
 * back as the task's result.
 */
export type ProgressMessage = number | typeof CHUNK_DONE;

export const PROGRESS_INTERVAL_MS = 100;
