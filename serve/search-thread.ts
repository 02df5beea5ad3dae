import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { PolicySearchResult } from '../agents/network/policy-search.ts';
import { formatPosition, type Position, type Rules } from '../env/index.ts';
import { InferenceError } from '../models/errors.ts';
import {
  INFERENCE_ENV,
  type InferenceChoice,
  inferenceChoice,
} from '../models/inference/choice.ts';
import { RequestError } from './act-request.ts';
import { RETRY_AFTER_SECONDS } from './limited-server.ts';
import type { MoveSearch } from './policy-service.ts';
import type { SearchAnswer, SearchTask, SearchThreadSetup } from './search-task.ts';

const WORKER_FILE = fileURLToPath(new URL('./search-worker.js', import.meta.url));

/** Seconds a request's search may take by default, its wait for the thread included. */
export const DEFAULT_SEARCH_TIMEOUT_SECONDS = 30;
/** Requests that may wait by default while the thread searches for another. */
export const DEFAULT_SEARCHES_WAITING = 16;

export interface SearchThreadOptions extends SearchThreadSetup {
  /**
   * Seconds a request's search may take, its wait for the thread included:
   * then it is stopped (a running search by ending the thread, which starts
   * again) and the request answered 503.
   */
  readonly timeoutSeconds?: number;
  /** Requests that may wait while the thread searches for another; more are answered 503 at once. */
  readonly maxWaiting?: number;
}

/**
 * A service's search (PUCT over the policy, or the perfect player) on a
 * worker thread of its own (search-worker.ts), so that the service's event
 * loop stays free: `GET /health` answers and Ctrl-C or SIGTERM stop the
 * service while a search runs. One search runs at a time; up to
 * `maxWaiting` requests wait for it, more are refused (503, Retry-After);
 * none takes longer than `timeoutSeconds`, its wait included.
 */
export class SearchThread implements MoveSearch {
  readonly #pool: Piscina<SearchTask, SearchAnswer>;
  readonly #timeoutMs: number;
  readonly #maxWaiting: number;
  /** Searches accepted and not yet answered: the running one and those waiting. */
  #pending = 0;
  #closed: Promise<void> | null = null;

  private constructor(
    pool: Piscina<SearchTask, SearchAnswer>,
    readonly label: string,
    readonly timeoutSeconds: number,
    maxWaiting: number,
  ) {
    this.#pool = pool;
    this.#timeoutMs = timeoutSeconds * 1000;
    this.#maxWaiting = maxWaiting;
  }

  /**
   * Starts the thread and waits until its search is made (the policy read,
   * the tables loaded); rejects with the thread's error if it cannot be.
   * Throws a RangeError for nonsense limits.
   */
  static async start(options: SearchThreadOptions): Promise<SearchThread> {
    const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_SEARCH_TIMEOUT_SECONDS;
    const maxWaiting = options.maxWaiting ?? DEFAULT_SEARCHES_WAITING;
    if (!(timeoutSeconds > 0 && timeoutSeconds <= 24 * 3600)) {
      throw new RangeError(`search timeout must be positive, up to a day, got ${timeoutSeconds} s`);
    }
    if (!Number.isInteger(maxWaiting) || maxWaiting < 0) {
      throw new RangeError(
        `searches waiting must be a non-negative integer, got ${String(maxWaiting)}`,
      );
    }
    const setup: SearchThreadSetup = { policyPath: options.policyPath, search: options.search };
    const pool = new Piscina<SearchTask, SearchAnswer>({
      filename: WORKER_FILE,
      minThreads: 1,
      maxThreads: 1,
      workerData: setup,
      env: { ...process.env, [INFERENCE_ENV]: threadInference(inferenceChoice()) },
    });
    try {
      const ready = await pool.run({ kind: 'ready' });
      if (ready.kind !== 'ready') throw new Error(`the search thread answered ${ready.kind}`);
      return new SearchThread(pool, ready.label, timeoutSeconds, maxWaiting);
    } catch (error) {
      await pool.destroy();
      throw error;
    }
  }

  /** Searches a position on the thread; throws a RequestError when it is busy, too slow, or refuses. */
  async search(position: Position, rules: Rules): Promise<PolicySearchResult> {
    if (this.#closed !== null) throw new RequestError(503, 'the service is stopping');
    if (this.#pending > this.#maxWaiting) {
      throw new RequestError(
        503,
        `the service is busy: a search is running and ${this.#maxWaiting} more wait for it, the most it queues; retry in ${RETRY_AFTER_SECONDS} s`,
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    }
    this.#pending++;
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), this.#timeoutMs);
    try {
      const task: SearchTask = { kind: 'search', position: formatPosition(position), rules };
      const answer = await this.#pool.run(task, { signal: stop.signal });
      if (answer.kind === 'refused') throw new RequestError(422, answer.message);
      if (answer.kind !== 'found') throw new Error(`the search thread answered ${answer.kind}`);
      return answer.result;
    } catch (error) {
      if (stop.signal.aborted) {
        throw new RequestError(
          503,
          `the search did not finish within ${this.timeoutSeconds} s, the most a request may take here (serve --search-timeout), its wait for other searches included: it was stopped`,
        );
      }
      if (this.#closed !== null) throw new RequestError(503, 'the service is stopping');
      throw error;
    } finally {
      clearTimeout(timer);
      this.#pending--;
    }
  }

  /** Ends the thread, a running search with it; requests still waiting are answered 503. */
  close(): Promise<void> {
    this.#closed ??= this.#pool.destroy();
    return this.#closed;
  }
}

/**
 * What runs the search thread's networks. A search past its time cap is stopped
 * by ending its thread, and a thread ended inside onnxruntime-node's native code
 * can take the whole process down with it (the service died so in 2 of 6 runs
 * of test/serve/search-thread.test.ts). The thread runs the plain runner, or
 * tfjs (WebAssembly, safe to stop) when asked for; onnx asked for is refused.
 */
export function threadInference(choice: InferenceChoice): InferenceChoice {
  if (choice === 'onnx') {
    throw new InferenceError(
      `--inference onnx cannot run serve's search thread: a search past --search-timeout is stopped by ending its thread, which onnxruntime-node does not survive; use auto, plain or tfjs`,
    );
  }
  return choice === 'tfjs' ? 'tfjs' : 'plain';
}
