import { threadJob } from '../../../threads/job.ts';
import { ThreadPool } from '../../../threads/pool.ts';
import { cachedEndgame } from '../../endgame/cache/shared-tables.ts';
import type { BookChunk, BookChunkRunner } from './build-book.ts';
import { solveBookChunk } from './local-runner.ts';

/**
 * Solves a chunk of an opening book's leaves in this thread, with the
 * endgame table of the book's settings from the cache (read once a thread;
 * the command builds it before the threads start): a worker thread's job, and
 * a queue worker's.
 */
export function solveBookChunkHere(chunk: BookChunk, onLeaf: () => void = () => {}): Uint8Array {
  return solveBookChunk(chunk, (seeds, settings) => cachedEndgame(seeds, settings.rules), onLeaf);
}

/** The thread job that solves a chunk of an opening book's leaves. */
export const BOOK_LEAVES_JOB = threadJob(import.meta.url, solveBookChunkHere);

/**
 * A BookChunkRunner on `threads` worker threads of this process (this code,
 * so its answers are trusted): every chunk is handed to the pool at once,
 * each result taken as it comes; an abort ends the threads (the chunks they
 * held are solved again by the next build).
 */
export function threadBookRunner(threads: number): BookChunkRunner {
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
}
