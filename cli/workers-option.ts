import { capWorkers } from '../threads/pool.ts';

/**
 * The worker threads a command uses for `--workers N`: here at most one per
 * core, saying so on stderr when it caps; through a queue, N sizes the chunks
 * for the queue's workers and this machine's cores do not bound it.
 */
export function workersHere(requested: number, queue: string | undefined): number {
  if (queue !== undefined) return requested;
  return capWorkers(requested, (cores) =>
    process.stderr.write(
      `ayoayo: --workers ${requested} is more than the ${cores} cores here; using ${cores}\n`,
    ),
  );
}
