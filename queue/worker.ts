import { hostname } from 'node:os';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { watchEngineWorkers } from '../agents/engine-registry.ts';
import { registerNetworkKinds } from '../agents/network/kinds.ts';
import type { InferenceBackend } from '../models/inference/inference-engine.ts';
import { registerBuiltinAlgorithms } from '../train/builtin-algorithms.ts';
import type { TrainThreads } from '../train/threads/train-threads.ts';
import { runAccuracyJob } from './accuracy-job.ts';
import { runBookJob } from './book-job.ts';
import { playChunkJob } from './chunk-job.ts';
import { defaultMaxJobMemory } from './job-memory.ts';
import { ACCURACY_JOB, BOOK_JOB, CHUNK_JOB, queueName, SHARD_JOB, TRAIN_JOB } from './jobs.ts';
import { PolicyCache } from './policy-transport.ts';
import { QueueStatus } from './queue-status.ts';
import { checkRedis, closeQueueClients, parseRedisUrl, redactRedisUrl } from './redis.ts';
import { removeOrphanFolders, TEMP_RUN_PREFIX } from './temp-folders.ts';
import { runTrainJob, type TrainWorker } from './train-job.ts';
import { ayoayoVersion } from './version.ts';

export interface QueueWorkerOptions {
  /** redis:// or rediss:// URL of the queue. */
  readonly url: string;
  /** Jobs run at once by this process (default 1; start one process per core instead). */
  readonly concurrency?: number;
  /** Run `ext:` agents (commands) that come through the queue. */
  readonly allowExt?: boolean;
  /**
   * The most memory one job may need, in bytes, as estimated from its settings
   * before it allocates anything (default: a quarter of the machine's, shared by
   * the jobs run at once); larger training runs and shards are refused.
   */
  readonly maxJobMemory?: number;
  /** How long a job stays locked without renewal before it is retried elsewhere (default 30 s). */
  readonly lockDurationMs?: number;
  /** How often workers look for stalled jobs (default 30 s). */
  readonly stalledIntervalMs?: number;
  /** The version this worker serves (default this ayoayo's; tests play a stale worker). */
  readonly version?: string;
  /** Told of each finished or failed job. */
  readonly log?: (line: string) => void;
  /** Told when Redis becomes unreachable (rate-limited) and when it is back (default: `log`). */
  readonly status?: (line: string) => void;
}

export interface QueueWorker {
  /** The version whose queue this worker serves. */
  readonly version: string;
  /** The most memory it lets one job need (bytes). */
  readonly maxJobMemory: number;
  /** Finishes the jobs in hand, then disconnects (at once while Redis is unreachable). */
  close(): Promise<void>;
}

/** Marks a job whose stored data BullMQ could not read, so that it fails instead of hanging. */
const UNREADABLE = '__ayoayo_unreadable_job_data__';

/**
 * BullMQ's worker, except that a job whose stored data is not JSON (written
 * to Redis by hand) reaches the processor with a marker, which fails it; in
 * BullMQ's own the parse throws in its fetch loop and the job stays active.
 */
class CheckedWorker extends Worker {
  protected override createJob(data: Parameters<Worker['createJob']>[0], jobId: string): Job {
    try {
      JSON.parse(data.data || '{}');
      return super.createJob(data, jobId);
    } catch {
      return super.createJob({ ...data, data: JSON.stringify({ [UNREADABLE]: true }) }, jobId);
    }
  }
}

/**
 * A worker that takes tournament chunks, accuracy chunks, opening book
 * chunks, training runs and training runs' self-play shards from the queue of its own ayoayo version
 * and runs them with the project's own code. A job is untrusted input: its
 * data is validated, stamped with this version, bounded in memory (training
 * runs and shards, by their settings), and its agents read only the files it
 * carries (by sha256, from the queue's store), never this machine's disk;
 * commands (`ext:` agents) are refused unless `allowExt`. A killed worker's
 * jobs are picked up by the others once their lock expires (BullMQ's stalled
 * jobs), and its temporary folders are removed by the next worker started on
 * the machine.
 */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  await checkRedis(options.url);
  const connection = parseRedisUrl(options.url);
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  const maxJobMemory = options.maxJobMemory ?? defaultMaxJobMemory(concurrency);
  if (!Number.isFinite(maxJobMemory) || maxJobMemory <= 0) {
    throw new RangeError(`max job memory must be a positive number of bytes, got ${maxJobMemory}`);
  }
  const version = options.version ?? ayoayoVersion();
  const worker: TrainWorker = { version, allowExt: options.allowExt ?? false, maxJobMemory };
  const log = options.log;
  for (const folder of removeOrphanFolders(TEMP_RUN_PREFIX)) {
    log?.(`removed ${folder}, left by a worker that was killed mid-run`);
  }
  const status = new QueueStatus(
    redactRedisUrl(options.url),
    options.status ?? options.log ?? (() => {}),
  );
  const store = new Redis(connection);
  status.watch(store);
  // The store's connection comes back with Redis (the worker's own connections do too).
  store.on('ready', () => status.succeeded());
  const policies = new PolicyCache(store);
  watchEngineWorkers();
  // A worker plays every kind of agent a job may name, those that load a network included.
  registerNetworkKinds();
  registerBuiltinAlgorithms();
  // Shards play on threads of their own (one per job at once), started with the first shard:
  // a search holds its thread for the whole shard, and this one must renew the job's lock.
  let shardThreads: Promise<TrainThreads> | null = null;
  let inference: Promise<InferenceBackend> | null = null;
  const playShard = async (data: unknown): Promise<unknown> => {
    const { playShardJob } = await import('./shard-job.ts');
    shardThreads ??= import('../train/threads/train-threads.ts').then(
      ({ TrainThreads }) => new TrainThreads(concurrency),
    );
    // This worker's own inference backend (onnxruntime-node where it loads), resolved once.
    inference ??= import('../models/inference/inference-engine.ts').then(
      async ({ inferenceEngine }) => (await inferenceEngine()).backend,
    );
    return playShardJob(data, policies, await shardThreads, await inference, worker);
  };
  const bullWorker = new CheckedWorker(
    queueName(version),
    async (job: Job) => {
      if ((job.data as Record<string, unknown> | null)?.[UNREADABLE] === true) {
        throw new UnrecoverableError(`job ${job.id}'s stored data is not JSON: refused`);
      }
      if (job.name === CHUNK_JOB) return playChunkJob(job, policies, worker);
      if (job.name === TRAIN_JOB) return runTrainJob(job.data, policies, worker);
      if (job.name === SHARD_JOB) return playShard(job.data);
      if (job.name === ACCURACY_JOB) return runAccuracyJob(job, policies, worker);
      if (job.name === BOOK_JOB) return runBookJob(job, worker);
      throw new UnrecoverableError(
        `this worker (ayoayo ${version}) does not know the job kind '${String(job.name).slice(0, 100)}'`,
      );
    },
    {
      connection,
      concurrency,
      // Named so that coordinators can tell which worker of which version is connected.
      name: `${hostname()}/${process.pid}`,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      // A job whose worker died twice is still retried; a third time it fails with its reason.
      maxStalledCount: 2,
    },
  );
  if (log !== undefined) {
    bullWorker.on('completed', (job) => log(`done ${job.name} ${job.id}`));
    bullWorker.on('failed', (job, err) =>
      log(`failed ${job?.name ?? ''} ${job?.id ?? ''}: ${err.message}`),
    );
  }
  status.watch(bullWorker);
  await bullWorker.waitUntilReady();
  return {
    version,
    maxJobMemory,
    async close() {
      // While Redis is unreachable a polite close would wait for it forever: then drop the
      // connections (jobs in hand are lost with them and run again elsewhere, as after a kill).
      if (status.down) await closeQueueClients([bullWorker, store]);
      else {
        await bullWorker.close();
        await closeQueueClients([store]);
      }
      if (shardThreads !== null) await (await shardThreads).dispose();
    },
  };
}
