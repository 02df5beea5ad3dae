import type { BookChunk } from '../solve/book/cache/build-book.ts';
import { solveBookChunk } from '../solve/book/cache/local-runner.ts';
import { cachedEndgame } from '../solve/endgame/cache/shared-tables.ts';
import { threadJob } from '../threads/job.ts';

/**
 * Solves a chunk of an opening book's leaves in this thread, with the
 * endgame table of the book's settings from the cache (read once a thread;
 * the command builds it before the threads start).
 */
export function solveBookChunkHere(chunk: BookChunk, onLeaf: () => void = () => {}): Uint8Array {
  return solveBookChunk(chunk, (seeds, settings) => cachedEndgame(seeds, settings.rules), onLeaf);
}

/** The thread job that solves a chunk of an opening book's leaves. */
export const BOOK_LEAVES_JOB = threadJob(import.meta.url, solveBookChunkHere);
