import {
  type AlgorithmSource,
  algorithmNamed,
  registerAlgorithmSources,
} from '../algorithm/registry.ts';
import { type SliceServeTask, serveSlices as serve } from '../gradients/slice-task.ts';
import { playShard } from '../shards/play-shard.ts';
import type { ShardResult, ShardTask } from '../shards/protocol.ts';

/** A shard to play on a worker thread, with the registrations of the algorithms made where it came from. */
export interface ShardThreadTask {
  readonly task: ShardTask;
  readonly algorithms: readonly AlgorithmSource[];
}

/**
 * A training's worker thread, piscina's entry point (train-threads.ts): it
 * plays the self-play shards of the run's algorithm and serves the update's
 * gradient slices. Compiled, this file is `dist/train/threads/train-worker.js`
 * and piscina loads it directly; in the sources, `train-worker.js` registers
 * tsx first and then delegates here.
 */
export async function playShardTask({ task, algorithms }: ShardThreadTask): Promise<ShardResult> {
  await registerAlgorithmSources(algorithms);
  return playShard(task, (setup, forward) => {
    const shards = algorithmNamed(setup.algorithm)?.shards;
    if (shards === undefined || shards === null) {
      throw new Error(
        `no algorithm registered in this thread plays shards of ${setup.algorithm} (register it with a source: registerAlgorithm's second argument)`,
      );
    }
    return shards.player(setup.play, forward);
  });
}

/** Serves an update's gradient slices until it ends (gradients/slice-task.ts). */
export function serveSlices(task: SliceServeTask): Promise<void> {
  return serve(task.serving, task.threads);
}
