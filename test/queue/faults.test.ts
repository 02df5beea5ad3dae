import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { runTournament, type TournamentOptions } from '../../eval/tournament.ts';
import { playChunkJob } from '../../queue/chunk-job.ts';
import { PolicyCache } from '../../queue/policy-transport.ts';
import { parseRedisUrl } from '../../queue/redis.ts';
import { queueChunkRunner } from '../../queue/tournament-runner.ts';
import { type QueueWorker, startQueueWorker } from '../../queue/worker.ts';
import { until } from '../ayoayo-command.ts';
import { describeWithSystemPackage, REDIS_SERVER } from '../system-packages.ts';
import {
  FAST_LOCK_FLAGS,
  FAST_LOCKS,
  startTestRedis,
  type TestRedis,
  THIS_QUEUE,
  THIS_WORKER,
} from './redis-server.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const withoutTimes = (games: readonly { seconds: number }[]) =>
  games.map(({ seconds: _, ...g }) => g);

let redis: TestRedis;
let queue: Queue;
let workers: QueueWorker[] = [];

describeWithSystemPackage(REDIS_SERVER, 'queue faults', () => {
  beforeAll(async () => {
    redis = await startTestRedis();
    queue = new Queue(THIS_QUEUE, { connection: parseRedisUrl(redis.url) });
  });

  afterEach(async () => {
    await Promise.all(workers.map((w) => w.close()));
    workers = [];
    await queue.obliterate({ force: true });
  });

  afterAll(async () => {
    await queue?.close();
    await redis?.stop();
  });

  it('a worker killed (kill -9) mid-chunk loses nothing: the chunk runs again, every game counted once', async () => {
    const child: ChildProcessWithoutNullStreams = spawn(
      process.execPath,
      ['bin/ayoayo.js', 'worker', '--queue', redis.url, ...FAST_LOCK_FLAGS, '--quiet'],
      { cwd: root },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await until(async () => stderr.includes('worker on'), `the worker to start (${stderr})`);
      // Two chunks of two slow games each.
      const options: TournamentOptions = {
        specs: ['mcts:2000', 'minimax:4'],
        games: 4,
        seed: 3,
        workers: 1,
      };
      const queued = runTournament({ ...options, runChunks: queueChunkRunner(redis.url) });
      await until(async () => (await queue.getActiveCount()) > 0, 'the child to take a chunk');
      const [active] = await queue.getActive();
      child.kill('SIGKILL');
      await exited;
      workers.push(await startQueueWorker({ url: redis.url, ...FAST_LOCKS }));
      const result = await queued;

      const local = await runTournament({ ...options, workers: 0 });
      expect(withoutTimes(result.games)).toEqual(withoutTimes(local.games));
      expect(result.pairings[0]?.games).toBe(4);
      const killed = await queue.getJob(active?.id as string);
      // The killed worker's chunk was taken for stalled and finished by the other worker.
      expect(killed?.stalledCounter).toBeGreaterThanOrEqual(1);
      expect(await killed?.getState()).toBe('completed');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a restarted coordinator picks up the finished chunks and waits for the rest', async () => {
    const options: TournamentOptions = {
      specs: ['random', 'greedy', 'minimax:2'],
      games: 8,
      seed: 9,
      workers: 4,
    };
    const stop = new AbortController();
    const first = runTournament({
      ...options,
      runChunks: queueChunkRunner(redis.url, { signal: stop.signal }),
    });
    // Exactly two chunks are played (by the worker's own chunk player) before the
    // coordinator stops: a live worker could finish them all first on a fast machine.
    await until(async () => (await queue.getWaitingCount()) >= 3, 'the chunks to be queued');
    const store = new Redis(parseRedisUrl(redis.url));
    const manual = new Worker(THIS_QUEUE, null, { connection: parseRedisUrl(redis.url) });
    try {
      for (let i = 0; i < 2; i++) {
        const job = (await manual.getNextJob('manual')) as Job;
        const records = await playChunkJob(job, new PolicyCache(store), THIS_WORKER);
        await job.moveToCompleted(records, 'manual', false);
      }
    } finally {
      await manual.close();
      store.disconnect();
    }
    stop.abort();
    await expect(first).rejects.toThrow(/coordinator was stopped/);
    expect(await queue.getCompletedCount()).toBe(2);
    workers.push(await startQueueWorker({ url: redis.url }));
    const result = await runTournament({ ...options, runChunks: queueChunkRunner(redis.url) });

    const local = await runTournament({ ...options, workers: 0 });
    expect(withoutTimes(result.games)).toEqual(withoutTimes(local.games));
    // The second coordinator enqueued nothing new: each chunk ran exactly once.
    const jobs = await queue.getCompleted(0, -1);
    const chunks = new Set(jobs.map((j) => j.id));
    expect(chunks.size).toBe(jobs.length);
    expect(jobs.every((j) => j.attemptsMade === 1)).toBe(true);
    expect(jobs.reduce((n, j) => n + (j.returnvalue as unknown[]).length, 0)).toBe(24);
  });

  it('a chunk that keeps failing is reported with its error after its attempts, not retried forever', async () => {
    const policy = 'policy:models/pretrained/policy.json';
    const failed = runTournament({
      specs: [policy, 'random'],
      games: 2,
      seed: 1,
      workers: 0,
      runChunks: queueChunkRunner(redis.url),
    });
    // Corrupt the policy the coordinator shared before any worker reads it.
    const store = new Redis(parseRedisUrl(redis.url));
    await until(async () => (await queue.getWaitingCount()) > 0, 'the chunk to be queued');
    for (const key of await store.keys('ayoayo:policy:*')) await store.set(key, '{"format":"x"}');
    store.disconnect();
    workers.push(await startQueueWorker({ url: redis.url }));
    await expect(failed).rejects.toThrow(
      /chunk 0 \(policy:models\/pretrained\/policy.json vs random, games 0-1\) failed after 3 attempt\(s\): .*does not match its checksum/,
    );
  });
});
