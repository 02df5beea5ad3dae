import { ThreadPool } from '../../threads/pool.ts';
import { algorithmSources } from '../algorithm/registry.ts';
import type { SliceServing, SliceThreads } from '../gradients/slice-task.ts';
import type { ShardResult, ShardTask, ShardThreads } from '../shards/protocol.ts';
import { PLAY_SHARD_JOB, SERVE_SLICES_JOB } from './jobs.ts';

/**
 * A training run's worker threads, on the project's thread pool (threads/):
 * they play the self-play shards of its algorithm (train/shards/), each
 * thread building a network that takes every task's weights and a player per
 * distinct shard setup, and, while self-play waits, serve the update's
 * gradient slices, each thread with one session per gradient graph. Each
 * thread first makes this thread's registrations of algorithms. The run's
 * own pool, and a queue worker's (whose main thread must stay free to renew
 * its job's lock while a shard plays).
 */
export class TrainThreads implements SliceThreads, ShardThreads {
  readonly #pool: ThreadPool;

  constructor(readonly threads: number) {
    const setup = algorithmSources().map(({ module, register }) => ({ module, name: register }));
    this.#pool = new ThreadPool(threads, { setup });
  }

  /** One iteration of a shard on one of the threads. */
  async playShard<C, O>(task: ShardTask<C>): Promise<ShardResult<C, O>> {
    // The thread's player is the one the task's setup names, whose shards carry C and give O.
    return (await this.#pool.run(PLAY_SHARD_JOB, task)) as ShardResult<C, O>;
  }

  async serveSlices(serving: SliceServing, threads: number): Promise<void> {
    await this.#pool.run(SERVE_SLICES_JOB, { serving, threads });
  }

  dispose(): Promise<void> {
    return this.#pool.destroy();
  }
}

/**
 * The run's worker threads: up to `workers`, as many as its self-play shards
 * played here or its update's slices can keep busy; null when that is none or
 * there would be nothing for them to do (one shard here and an update of
 * one slice or one session).
 */
export function trainThreads(
  workers: number,
  shardsHere: number,
  updateSlices: number | null,
): TrainThreads | null {
  const threads = Math.min(workers, Math.max(shardsHere, updateSlices ?? 1));
  if (threads < 1 || (shardsHere <= 1 && threads < 2)) return null;
  return new TrainThreads(threads);
}
