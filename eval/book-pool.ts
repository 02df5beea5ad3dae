import type { BookChunkRunner } from '../solve/book/cache/build-book.ts';
import { ThreadPool } from '../threads/pool.ts';
import { BOOK_LEAVES_JOB } from './book-chunk.ts';

/**
 * A BookChunkRunner on `threads` worker threads (the thread pool, job
 * BOOK_LEAVES_JOB): every chunk is handed to the pool at once, each result
 * taken as it comes; an abort ends the threads (the chunks they held are
 * solved again by the next build).
 */
export function poolBookRunner(threads: number): BookChunkRunner {
  return async (chunks, onChunk, onLeaf, signal) => {
    if (chunks.length === 0) return;
    const pool = new ThreadPool(threads);
    const stopped = new Promise<void>((resolve) => {
      if (signal?.aborted === true) resolve();
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    let failure: unknown = null;
    const all = Promise.all(
      chunks.map((input, index) =>
        pool
          .run(BOOK_LEAVES_JOB, input, (n) => {
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
  };
}
