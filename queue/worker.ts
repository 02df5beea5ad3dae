import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { watchEngineWorkers } from '../agents/engine-registry.ts';
import type { InferenceBackend } from '../models/inference/inference-engine.ts';
import type { ShardThreads } from '../train/expert-iteration/sharded-self-play.ts';
import { runAccuracyJob } from './accuracy-job.ts';
import { playChunkJob } from './chunk-job.ts';
import { ACCURACY_JOB, CHUNK_JOB, QUEUE_NAME, SHARD_JOB, TRAIN_JOB } from './jobs.ts';
import { PolicyCache } from './policy-transport.ts';
import { QueueStatus } from './queue-status.ts';
import { checkRedis, closeQueueClients, parseRedisUrl, redactRedisUrl } from './redis.ts';
import { runTrainJob } from './train-job.ts';
import { ayoayoVersion } from './version.ts';

export interface QueueWorkerOptions {
  /** redis:// or rediss:// URL of the queue. */
  readonly url: string;
  /** Jobs run at once by this process (default 1; start one process per core instead). */
  readonly concurrency?: number;
  /** Run `ext:` agents (commands) that come through the queue. */
  readonly allowExt?: boolean;
  /** How long a job stays locked without renewal before it is retried elsewhere (default 30 s). */
  readonly lockDurationMs?: number;
  /** How often workers look for stalled jobs (default 30 s). */
  readonly stalledIntervalMs?: number;
  /** Told of each finished or failed job. */
  readonly log?: (line: string) => void;
  /** Told when Redis becomes unreachable (rate-limited) and when it is back (default: `log`). */
  readonly status?: (line: string) => void;
}

export interface QueueWorker {
  /** Finishes the jobs in hand, then disconnects (at once while Redis is unreachable). */
  close(): Promise<void>;
}

/**
 * A worker that takes tournament chunks, accuracy chunks, training runs and
 * training runs' self-play shards from the queue and runs them with the project's own code.
 * Job data is validated; commands (`ext:` agents) are refused unless
 * `allowExt`; shards of another ayoayo version are refused. A killed worker's
 * jobs are picked up by the others once their lock expires (BullMQ's stalled
 * jobs).
 */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  await checkRedis(options.url);
  const connection = parseRedisUrl(options.url);
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  const allowExt = options.allowExt ?? false;
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
  // Shards play on threads of their own (one per job at once), started with the first shard:
  // a search holds its thread for the whole shard, and this one must renew the job's lock.
  let shardThreads: Promise<ShardThreads> | null = null;
  let inference: Promise<InferenceBackend> | null = null;
  const playShard = async (data: unknown): Promise<unknown> => {
    const { playShardJob } = await import('./shard-job.ts');
    shardThreads ??= import('../train/expert-iteration/sharded-self-play.ts').then(
      ({ ShardThreads }) => new ShardThreads(concurrency),
    );
    // This worker's own inference backend (onnxruntime-node where it loads), resolved once.
    inference ??= import('../models/inference/inference-engine.ts').then(
      async ({ inferenceEngine }) => (await inferenceEngine()).backend,
    );
    return playShardJob(data, policies, await shardThreads, await inference);
  };
  const worker = new Worker(
    QUEUE_NAME,
    async (job: Job) => {
      if (job.name === CHUNK_JOB) return playChunkJob(job, policies, allowExt);
      if (job.name === TRAIN_JOB) return runTrainJob(job.data, allowExt);
      if (job.name === SHARD_JOB) return playShard(job.data);
      if (job.name === ACCURACY_JOB) return runAccuracyJob(job, policies, allowExt);
      throw new UnrecoverableError(
        `this worker (ayoayo ${ayoayoVersion()}) does not know the job kind '${job.name}': is the coordinator another version? Run the same version on the coordinator and every worker`,
      );
    },
    {
      connection,
      concurrency,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      // A job whose worker died twice is still retried; a third time it fails with its reason.
      maxStalledCount: 2,
    },
  );
  const log = options.log;
  if (log !== undefined) {
    worker.on('completed', (job) => log(`done ${job.name} ${job.id}`));
    worker.on('failed', (job, err) =>
      log(`failed ${job?.name ?? ''} ${job?.id ?? ''}: ${err.message}`),
    );
  }
  status.watch(worker);
  await worker.waitUntilReady();
  return {
    async close() {
      // While Redis is unreachable a polite close would wait for it forever: then drop the
      // connections (jobs in hand are lost with them and run again elsewhere, as after a kill).
      if (status.down) await closeQueueClients([worker, store]);
      else {
        await worker.close();
        await closeQueueClients([store]);
      }
      if (shardThreads !== null) await (await shardThreads).dispose();
    },
  };
}
