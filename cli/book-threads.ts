import { availableParallelism } from 'node:os';
import { setFirstUseBookRunner } from '../solve/book/cache/load-book.ts';
import { threadBookRunner } from '../solve/book/cache/thread-runner.ts';

/**
 * An opening book built on first use (the perfect player's, under rules with
 * no book yet) solves its leaves on one worker thread per core: the command
 * line may start threads, the library does not unless asked.
 */
export function firstUseBooksOnThreads(): void {
  setFirstUseBookRunner(() => threadBookRunner(availableParallelism()));
}
