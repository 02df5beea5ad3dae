import type { BookChunk, BookChunkRunner } from '../solve/book/cache/build-book.ts';
import { WorkerPool } from './pool.ts';

/**
 * A BookChunkRunner on `threads` worker threads of this process (eval's
 * pool, job kind `book-leaves`; this code, so its answers are trusted):
 * every chunk is handed to the pool at once, each result taken as it comes;
 * an abort ends the threads (the chunks they held are solved again by the
 * next build).
 */
export function poolBookRunner(threads: number): BookChunkRunner {
  return {
    foreign: false,
    threads,
    solve: (chunks, onChunk, onLeaf, run) =>
      solveOnThreads(threads, chunks, onChunk, onLeaf, run.signal),
  };
}

async function solveOnThreads(
  threads: number,
  chunks: readonly BookChunk[],
  onChunk: (index: number, records: Uint8Array) => void,
  onLeaf: () => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (chunks.length === 0) return;
  const pool = new WorkerPool(threads);
  const stopped = new Promise<void>((resolve) => {
    if (signal?.aborted === true) resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  let failure: unknown = null;
  const all = Promise.all(
    chunks.map((input, index) =>
      pool
        .run({ kind: 'book-leaves', input }, (n) => {
          for (let i = 0; i < n; i++) onLeaf();
        })
        .then(
          (records) => {
            if (signal?.aborted !== true) onChunk(index, records);
          },
          (err: unknown) => {
            if (signal?.aborted !== true) failure ??= err;
          },
        ),
    ),
  );
  try {
    await Promise.race([all, stopped]);
  } finally {
    await pool.destroy();
  }
  if (failure !== null) throw failure;
}
