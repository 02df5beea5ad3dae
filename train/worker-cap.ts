import { availableParallelism } from 'node:os';

/**
 * Evaluation worker threads for a run: more threads than cores only add
 * memory (each loads tfjs) and contention, so the setting is capped at the
 * core count, saying so.
 */
export function capWorkers(
  requested: number,
  log: (line: string) => void,
  cores = availableParallelism(),
): number {
  if (requested <= cores) return requested;
  log(`ayoayo train: workers ${requested} capped at ${cores}, the number of cores here`);
  return cores;
}
