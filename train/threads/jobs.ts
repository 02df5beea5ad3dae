import type { ForwardPass } from '../../models/mlp-runner.ts';
import { threadJob } from '../../threads/job.ts';
import { algorithmNamed } from '../algorithm/registry.ts';
import { type SliceServeTask, serveSlices } from '../gradients/slice-task.ts';
import { playShard } from '../shards/play-shard.ts';
import type { ShardPlayer, ShardResult, ShardSetup, ShardTask } from '../shards/protocol.ts';

/**
 * What a training run's worker threads do (the thread pool, threads/): play
 * a shard of the run's self-play with the algorithm its setup names (the
 * thread made the registrations of the thread that started it first), and
 * serve the update's gradient slices while self-play waits.
 */

/** The player of a shard of `setup`, made by the algorithm registered in this thread under its name. */
function registeredPlayer(setup: ShardSetup, forward: ForwardPass): Promise<ShardPlayer> {
  const shards = algorithmNamed(setup.algorithm)?.shards;
  if (shards === undefined || shards === null) {
    throw new Error(
      `no algorithm registered in this thread plays shards of ${setup.algorithm} (register it with a source: registerAlgorithm's second argument)`,
    );
  }
  return shards.player(setup.play, forward);
}

/** Plays one iteration of a shard in this thread. */
export function playShardOnThread(task: ShardTask): Promise<ShardResult> {
  return playShard(task, registeredPlayer);
}

/** Serves an update's gradient slices until it ends (gradients/slice-task.ts). */
export function serveSlicesOnThread(task: SliceServeTask): Promise<void> {
  return serveSlices(task.serving, task.threads);
}

export const PLAY_SHARD_JOB = threadJob(import.meta.url, playShardOnThread);
export const SERVE_SLICES_JOB = threadJob(import.meta.url, serveSlicesOnThread);
