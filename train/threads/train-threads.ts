import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { algorithmSources } from '../algorithm/registry.ts';
import type { SliceServeTask, SliceServing, SliceThreads } from '../gradients/slice-task.ts';
import type { ShardResult, ShardTask } from '../shards/protocol.ts';
import type { ShardThreadTask } from './train-worker.ts';

const WORKER_FILE = fileURLToPath(new URL('./train-worker.js', import.meta.url));

/**
 * A training run's worker threads (train-worker.ts): they play the self-play
 * shards of its algorithm (train/shards/), each thread building a network
 * that takes every task's weights and a player per distinct shard setup, and, while self-play waits,
 * serve the update's gradient slices, each thread with one session per
 * gradient graph. The run's own pool, and a queue worker's (whose main thread
 * must stay free to renew its job's lock while a shard plays).
 */
export class TrainThreads implements SliceThreads {
  readonly #pool: Piscina<ShardThreadTask | SliceServeTask, ShardResult | undefined>;

  constructor(readonly threads: number) {
    this.#pool = new Piscina({ filename: WORKER_FILE, minThreads: threads, maxThreads: threads });
  }

  /** One iteration of a shard on one of the threads, which makes this thread's registrations of algorithms first. */
  async playShard<C, O>(task: ShardTask<C>): Promise<ShardResult<C, O>> {
    const threadTask: ShardThreadTask = { task, algorithms: algorithmSources() };
    // The thread's player is the one the task's setup names, whose shards carry C and give O.
    return (await this.#pool.run(threadTask, { name: 'playShardTask' })) as ShardResult<C, O>;
  }

  async serveSlices(serving: SliceServing, threads: number): Promise<void> {
    await this.#pool.run({ serving, threads }, { name: 'serveSlices' });
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
