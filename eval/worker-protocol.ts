import type { MessagePort } from 'node:worker_threads';
import type { Chunk } from './chunk.ts';
import type { GameRecord } from './match.ts';

/** A chunk sent to a worker thread, with the port its finished games are announced on. */
export interface WorkerTask {
  readonly chunk: Chunk;
  readonly progress: MessagePort;
}

/** Posted on the progress port after a chunk's last record. */
export const CHUNK_DONE = 'chunk-done';

/** What the progress port carries: each finished game, then CHUNK_DONE. */
export type ProgressMessage = GameRecord | typeof CHUNK_DONE;
