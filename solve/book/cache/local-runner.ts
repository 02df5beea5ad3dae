import type { EndgameValues } from '../../endgame/build.ts';
import { sameBookSettings } from '../format.ts';
import { LeafSolver } from '../leaves.ts';
import type { BookChunk, BookChunkRunner } from './build-book.ts';

/**
 * The solver of one thread for chunks of `settings`' book, made once per
 * thread and settings (its table is 32 MB): a worker thread or queue worker
 * solving chunk after chunk reuses it. `endgame` gives the table it solves
 * with (read from the cache once per thread).
 */
let kept: { chunk: BookChunk['settings']; solver: LeafSolver } | null = null;

/** Solves one chunk's leaves (records in the chunk's order) with this thread's LeafSolver. */
export function solveBookChunk(
  chunk: BookChunk,
  endgame: (seeds: number, settings: BookChunk['settings']) => EndgameValues | null,
  onLeaf: () => void = () => {},
): Uint8Array {
  if (kept === null || !sameBookSettings(kept.chunk, chunk.settings)) {
    const table =
      chunk.settings.endgameSeeds === 0
        ? null
        : endgame(chunk.settings.endgameSeeds, chunk.settings);
    kept = { chunk: chunk.settings, solver: new LeafSolver(chunk.settings, table) };
  }
  return kept.solver.solveAll(chunk.keys, onLeaf);
}

/**
 * Solves the chunks one after another in this thread, handing the event loop
 * a turn between chunks (a signal can stop it there).
 */
export function localBookRunner(
  endgame: (seeds: number, settings: BookChunk['settings']) => EndgameValues | null,
): BookChunkRunner {
  return {
    foreign: false,
    threads: 1,
    solve: async (chunks, onChunk, onLeaf, { signal }) => {
      for (let i = 0; i < chunks.length; i++) {
        if (signal?.aborted === true) return;
        onChunk(i, solveBookChunk(chunks[i] as BookChunk, endgame, onLeaf));
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
