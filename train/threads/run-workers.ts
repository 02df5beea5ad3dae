import { availableParallelism } from 'node:os';
import { algorithmOf } from '../algorithm/registry.ts';
import type { TrainConfig } from '../settings/schema.ts';

/**
 * The worker threads a run of `config` uses on this machine: its `workers`,
 * or one per core where that is null; at most one per core and, for an
 * algorithm whose self-play is in shards, one per shard (the shard is the
 * unit of its self-play; the update's slices and the evaluations use the same
 * threads). `note` hears one line when a number the run asks for is capped.
 * The run's results are the same whatever this gives.
 */
export function runWorkers(
  config: TrainConfig,
  note?: (line: string) => void,
  cores = availableParallelism(),
): number {
  const descriptor = algorithmOf(config);
  const shards = descriptor.shards?.count(config) ?? Number.POSITIVE_INFINITY;
  const cap = Math.min(cores, shards);
  if (config.workers === null) return cap;
  if (config.workers <= cap) return config.workers;
  const why =
    shards < cores
      ? `the run's ${shards} self-play shards (${descriptor.block}.${descriptor.shards?.countSetting})`
      : 'the number of cores here';
  note?.(`ayoayo train: workers ${config.workers} capped at ${cap}, ${why}`);
  return cap;
}
