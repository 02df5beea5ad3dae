import { playShard, type ShardResult, type ShardTask } from './expert-iteration/shard.ts';
import { type SliceServeTask, serveSlices as serve } from './gradients/slice-task.ts';

/**
 * A training's worker thread, piscina's entry point (train-threads.ts): it
 * plays expert iteration's self-play shards and serves the update's gradient
 * slices. Compiled, this file is `dist/train/train-worker.js` and piscina
 * loads it directly; in the sources, `train/train-worker.js` registers tsx
 * first and then delegates here.
 */
export function playShardTask(task: ShardTask): Promise<ShardResult> {
  return playShard(task);
}

/** Serves an update's gradient slices until it ends (gradients/slice-task.ts). */
export function serveSlices(task: SliceServeTask): Promise<void> {
  return serve(task.serving, task.threads);
}
