import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { watchEngineWorkers } from '../agents/engine-registry.ts';
import { agentKindSources, type JobFiles } from '../agents/spec.ts';
import {
  CHUNK_DONE,
  type PoolJob,
  type PoolJobKind,
  type PoolJobs,
  type ProgressMessage,
  type WorkerTask,
} from './worker-protocol.ts';

const WORKER_FILE = fileURLToPath(new URL('./worker.js', import.meta.url));

/**
 * eval's worker threads: a piscina pool that runs tournament chunks, accuracy
 * chunks and the accuracy generator's games (worker-protocol.ts), each in a
 * thread that has registered the agent kinds registered in this one.
 */
export class WorkerPool {
  readonly #pool: Piscina<WorkerTask, unknown>;
  readonly #agentKinds = agentKindSources();

  /** `files`: a queue job's, the only files the agents of every job on the pool may read. */
  constructor(
    readonly threads: number,
    private readonly files?: JobFiles,
  ) {
    watchEngineWorkers();
    this.#pool = new Piscina<WorkerTask, unknown>({
      filename: WORKER_FILE,
      minThreads: threads,
      maxThreads: threads,
    });
  }

  /**
   * Runs a job on a thread; `onCount` hears of things done (games, positions)
   * as the thread reports them, every one of them before the result comes back.
   */
  run<K extends PoolJobKind>(
    job: { readonly kind: K; readonly input: PoolJobs[K]['input'] },
    onCount: (count: number) => void = () => {},
  ): Promise<PoolJobs[K]['output']> {
    const { port1, port2 } = new MessageChannel();
    // The thread ends with CHUNK_DONE after its last count (one port keeps its order).
    const drained = new Promise<void>((resolve) => {
      port1.on('message', (message: ProgressMessage) => {
        if (message === CHUNK_DONE) {
          port1.close();
          resolve();
        } else {
          onCount(message);
        }
      });
    });
    const task: WorkerTask = {
      job: job as PoolJob,
      progress: port2,
      agentKinds: this.#agentKinds,
      ...(this.files !== undefined ? { files: this.files } : {}),
    };
    const run = this.#pool.run(task, { transferList: [port2] });
    return Promise.all([run, drained]).then(([result]) => result as PoolJobs[K]['output']);
  }

  /** Ends the threads (jobs still running are rejected). */
  async destroy(): Promise<void> {
    await this.#pool.destroy();
  }
}

/** Runs every job on a pool of `threads` threads, results in the jobs' order. */
export async function runAllOnPool<K extends PoolJobKind>(
  kind: K,
  inputs: readonly PoolJobs[K]['input'][],
  threads: number,
  onCount: (count: number) => void,
  files?: JobFiles,
): Promise<PoolJobs[K]['output'][]> {
  const pool = new WorkerPool(threads, files);
  try {
    return await Promise.all(inputs.map((input) => pool.run({ kind, input }, onCount)));
  } finally {
    await pool.destroy();
  }
}

/**
 * Worker threads actually used for `requested`: at most one per core
 * (os.availableParallelism()). More only add memory (each loads the code, about
 * 30 MB) and contention: a thousand of them exhausted the machine and hung.
 * `note` hears the core count when the request is capped, to say so.
 */
export function capWorkers(
  requested: number,
  note?: (cores: number) => void,
  cores = availableParallelism(),
): number {
  if (requested <= cores) return requested;
  note?.(cores);
  return cores;
}
