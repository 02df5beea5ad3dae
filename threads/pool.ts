/**
 * The project's worker threads: a piscina pool that runs the jobs the layers
 * above declare (job.ts), reporting each job's progress as it goes. Node
 * only; it imports nothing of the project.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ThreadCall, ThreadJob } from './job.ts';
import { JOB_DONE, type ProgressMessage, type ThreadTask } from './protocol.ts';

const WORKER_FILE = fileURLToPath(new URL('./worker.js', import.meta.url));

export interface ThreadPoolOptions {
  /** Calls each thread makes before its first job (e.g. to register agent kinds). */
  readonly setup?: readonly ThreadCall[];
}

export class ThreadPool {
  readonly #pool: Piscina<ThreadTask, unknown>;
  readonly #setup: readonly ThreadCall[];

  constructor(
    readonly threads: number,
    options: ThreadPoolOptions = {},
  ) {
    this.#setup = (options.setup ?? []).map(({ module, name }) => ({ module, name }));
    this.#pool = new Piscina<ThreadTask, unknown>({
      filename: WORKER_FILE,
      minThreads: threads,
      maxThreads: threads,
    });
  }

  /**
   * Runs a job on a thread; `onCount` hears of things done (games, positions)
   * as the thread reports them, every one of them before the result comes back.
   */
  run<I, O>(
    job: ThreadJob<I, O>,
    input: I,
    onCount: (count: number) => void = () => {},
  ): Promise<O> {
    const { port1, port2 } = new MessageChannel();
    // The thread ends with JOB_DONE after its last count (one port keeps its order).
    const drained = new Promise<void>((resolve) => {
      port1.on('message', (message: ProgressMessage) => {
        if (message === JOB_DONE) {
          port1.close();
          resolve();
        } else {
          onCount(message);
        }
      });
    });
    const task: ThreadTask = {
      job: { module: job.module, name: job.name },
      input,
      setup: this.#setup,
      progress: port2,
    };
    const run = this.#pool.run(task, { transferList: [port2] });
    return Promise.all([run, drained]).then(([result]) => result as O);
  }

  /** Ends the threads (jobs still running are rejected). */
  async destroy(): Promise<void> {
    await this.#pool.destroy();
  }
}

/** Runs `job` on every input on a pool of `threads` threads, results in the inputs' order. */
export async function runAllOnThreads<I, O>(
  job: ThreadJob<I, O>,
  inputs: readonly I[],
  threads: number,
  onCount: (count: number) => void,
  options: ThreadPoolOptions = {},
): Promise<O[]> {
  const pool = new ThreadPool(threads, options);
  try {
    return await Promise.all(inputs.map((input) => pool.run(job, input, onCount)));
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
