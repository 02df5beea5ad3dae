import { playShard, type ShardResult, type ShardTask } from './shard.ts';

/**
 * Expert iteration's self-play worker, piscina's entry point. Compiled, this
 * file is `dist/train/expert-iteration/self-play-worker.js` and piscina loads it directly; in
 * the sources, `train/expert-iteration/self-play-worker.js` registers tsx first and then
 * delegates here.
 */
export default function playShardTask(task: ShardTask): Promise<ShardResult> {
  return playShard(task);
}
