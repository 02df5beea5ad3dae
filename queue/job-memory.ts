import { totalmem } from 'node:os';
import { estimateRunMemory, type MemoryEstimate } from '../train/run/memory-estimate.ts';
import { overMemoryLimit } from '../train/run/memory-limit.ts';
import type { TrainConfig } from '../train/settings/schema.ts';
import { QueueError } from './errors.ts';

/**
 * The memory a worker lets one job take by default: a quarter of the
 * machine's, shared by the jobs it runs at once (the presets' runs need under
 * 0.5 GB), so that a job within the schema's limits but too large for this
 * machine is refused rather than run out of memory and take the worker, and
 * whatever else runs there, with it.
 */
export function defaultMaxJobMemory(concurrency: number): number {
  return Math.floor(totalmem() / 4 / Math.max(1, concurrency));
}

const WHERE = "this worker's --max-job-memory";

/** Refuses a training run whose estimated memory (train/memory-estimate.ts) is over `limit` bytes. */
export function checkJobMemory(config: TrainConfig, limit: number): void {
  const why = overMemoryLimit(estimateRunMemory(config), limit, 'this training run', WHERE);
  if (why !== null) throw new QueueError(why);
}

/** Refuses a self-play shard whose estimated memory (its algorithm's shards say it) is over `limit` bytes. */
export function checkShardMemory(estimate: MemoryEstimate, limit: number): void {
  const why = overMemoryLimit(estimate, limit, 'this self-play shard', WHERE);
  if (why !== null) throw new QueueError(why);
}
