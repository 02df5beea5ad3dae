import '../setup/builtin-algorithms.ts';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { loadBackend } from '../../models/backend.ts';
import { type InferenceBackend, inferenceEngine } from '../../models/inference/inference-engine.ts';
import { QueueTimeoutError } from '../../queue/errors.ts';
import { SHARD_JOB, type ShardJob } from '../../queue/jobs.ts';
import { PolicyCache } from '../../queue/policy-transport.ts';
import { parseRedisUrl } from '../../queue/redis.ts';
import { playShardJob } from '../../queue/shard-job.ts';
import { queueShardRunner } from '../../queue/shard-runner.ts';
import { ayoayoVersion } from '../../queue/version.ts';
import { type QueueWorker, startQueueWorker } from '../../queue/worker.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import type { TrainConfig } from '../../train/settings/schema.ts';
import { TrainThreads } from '../../train/threads/train-threads.ts';
import { train } from '../../train/trainer.ts';
import { startAyoayo, until } from '../ayoayo-command.ts';
import { describeWithSystemPackage, REDIS_SERVER } from '../system-packages.ts';
import {
  FAST_LOCK_FLAGS,
  FAST_LOCKS,
  startTestRedis,
  type TestRedis,
  THIS_QUEUE,
  THIS_WORKER,
} from './redis-server.ts';

// One training run across machines: expert iteration's self-play shards on the
// queue. A queued run must be the local run, byte for byte (timings aside),
// however many workers play it and whatever goes wrong on the way.

const root = fileURLToPath(new URL('../..', import.meta.url));
const quiet = { log: () => {} };

const dir = mkdtempSync(join(tmpdir(), 'ayoayo-queued-train-'));

/** A tiny run: 3 shards of 2 games, 4 iterations, checkpoints every 2, a replay window of 2. */
function tiny(name: string, extra: Partial<TrainConfig> = {}): TrainConfig {
  return buildConfig([
    PRESETS.smoke,
    {
      runsDir: dir,
      name,
      algorithm: 'expert-iteration',
      iterations: 4,
      checkpointEvery: 2,
      evalEvery: 2,
      minibatchSize: 32,
      learningRateDecay: true,
      ...extra,
      expertIteration: {
        gamesAtOnce: 6,
        movesPerIteration: 48,
        simulations: 4,
        selfPlayShards: 3,
        replayIterations: 2,
        searchValueWeight: 0.5,
        openingPlies: 0,
        openingPliesMax: 6,
        epochs: 2,
      },
    },
  ]);
}

/** The run's config as a file for `ayoayo train --config`. */
function configFile(config: TrainConfig): string {
  const path = join(dir, `${config.name}.json`);
  writeFileSync(path, JSON.stringify(config));
  return path;
}

const sha = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex');

/**
 * Everything a run leaves that must not depend on where its shards were
 * played: every checkpoint (weights, Adam, generator, replay window, counters,
 * metrics without the timing columns, evaluations), the final policy's weights
 * and the final evaluation.
 */
function runRecord(config: TrainConfig) {
  const paths = runPaths(config);
  const files = readdirSync(paths.checkpoints)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const checkpoints = files.map((file) => {
    const c = readCheckpoint(join(paths.checkpoints, file));
    return {
      file,
      iteration: c.iteration,
      weights: sha(c.weights),
      optimizer: sha(c.optimizer),
      replay: sha(c.replay),
      rngState: c.rngState,
      counters: { games: c.counters.games, plies: c.counters.plies, samples: c.counters.samples },
      metrics: c.metrics.map((row) =>
        Object.fromEntries(
          Object.entries(row).filter(([k]) => !k.startsWith('perf/') && k !== 'elapsed_s'),
        ),
      ),
      lastEvaluation: c.lastEvaluation,
      best: c.best,
      curve: c.curve.map(({ minutes: _, ...point }) => point),
    };
  });
  const policy = JSON.parse(readFileSync(paths.policy, 'utf8'));
  const final = JSON.parse(readFileSync(paths.finalEvaluation, 'utf8'));
  return { checkpoints, policy: policy.network, evaluation: policy.evaluation, final: final.rows };
}

let redis: TestRedis;
let queue: Queue;
let workers: QueueWorker[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
let local: ReturnType<typeof runRecord>;
/** What runs the networks in this process (and its workers): the test's manual workers play on it too. */
const inference = (await inferenceEngine()).backend;

/** An in-process worker whose finished jobs are collected in `done` (ids). */
async function worker(done: string[] = [], locks = FAST_LOCKS): Promise<QueueWorker> {
  const w = await startQueueWorker({
    url: redis.url,
    ...locks,
    log: (line) => {
      const m = /^done self-play-shard (\S+)/.exec(line);
      if (m !== null) done.push(m[1] as string);
    },
  });
  workers.push(w);
  return w;
}

describeWithSystemPackage(REDIS_SERVER, 'one training run across machines', () => {
  beforeAll(async () => {
    redis = await startTestRedis();
    queue = new Queue(THIS_QUEUE, { connection: parseRedisUrl(redis.url) });
    // While the Redis test restarts it: the test's own view of the queue needs no reports.
    queue.on('error', () => {});
    const config = tiny('local');
    await train(config, { resume: false, ...quiet });
    local = runRecord(config);
  }, 60_000);

  afterEach(async () => {
    await Promise.all(workers.map((w) => w.close()));
    workers = [];
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await queue?.obliterate({ force: true });
    // Networks of runs that failed stay until their expiry: gone, each test sees its own.
    const store = new Redis(parseRedisUrl(redis.url));
    for (const key of await store.keys('ayoayo:policy:*')) await store.del(key);
    store.disconnect();
  });

  afterAll(async () => {
    await queue?.close();
    await redis?.stop();
  });

  it('plays the same run in this thread, on worker threads and on 1, 2 or 3 queue workers', async () => {
    expect(local.checkpoints.map((c) => c.file)).toEqual([
      'best.json',
      'iter-000002.json',
      'iter-000004.json',
      'latest.json',
    ]);
    const threads = tiny('threads', { workers: 2 });
    await train(threads, { resume: false, ...quiet });
    expect(runRecord(threads)).toEqual(local);

    const served: string[][] = [];
    for (const count of [1, 2, 3]) {
      // Each run keeps the workers of the run before and adds one.
      const mine: string[] = [];
      served.push(mine);
      await worker(mine);
      for (const done of served) done.length = 0;
      const config = tiny(`queued-${count}`);
      await train(config, { resume: false, ...quiet, shardRunner: queueShardRunner(redis.url) });
      expect(runRecord(config)).toEqual(local);
      // 4 iterations of 3 shards, each played once, and every worker played some.
      expect(served.flat()).toHaveLength(12);
      expect(new Set(served.flat()).size).toBe(12);
      for (const done of served) expect(done.length).toBeGreaterThan(0);
    }
    // The run names its shards' backend in every row of metrics.csv.
    const rows = readCheckpoint(runPaths(tiny('queued-3')).latest).metrics;
    expect(new Set(rows.map((r) => r['self_play/backend']))).toEqual(
      new Set([local.checkpoints[0]?.metrics[0]?.['self_play/backend']]),
    );
    expect(rows[0]?.['self_play/backend']).toMatch(/^(onnx|plain|tfjs-(wasm|cpu|tensorflow))$/);
  }, 120_000);

  it('a worker killed (kill -9) mid-shard: its shard is played elsewhere and the run is the same', async () => {
    const child = spawn(
      process.execPath,
      ['bin/ayoayo.js', 'worker', '--queue', redis.url, ...FAST_LOCK_FLAGS],
      { cwd: root },
    );
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await until(() => stderr.includes('worker on'), `the worker to start (${stderr})`);
    const config = tiny('killed-worker');
    const run = train(config, {
      resume: false,
      ...quiet,
      shardRunner: queueShardRunner(redis.url),
    });
    // Its first shard starts the worker's self-play thread: it is held a second or more.
    await until(async () => (await queue.getActiveCount()) > 0, 'the worker to take a shard');
    const [active] = await queue.getActive();
    child.kill('SIGKILL');
    await exited;
    expect(stderr).not.toMatch(/done self-play-shard/);
    const done: string[] = [];
    await worker(done);
    await run;
    expect(runRecord(config)).toEqual(local);
    expect(done).toContain(active?.id);
    expect(new Set(done).size).toBe(done.length);
  }, 90_000);

  it('a coordinator killed (kill -9) and resumed goes on from its checkpoint, taking the finished shards once', async () => {
    const config = tiny('killed-coordinator');
    const file = configFile(config);
    const first = startAyoayo(['train', '--config', file, '--queue', redis.url], {}, children);
    // The test plays the shards itself, up to the first one of iteration 3, which comes
    // after the checkpoint of iteration 2: the coordinator dies with that one finished.
    const store = new Redis(parseRedisUrl(redis.url));
    const manual = new Worker(THIS_QUEUE, null, { connection: parseRedisUrl(redis.url) });
    const threads = new TrainThreads(1);
    let finished: string | undefined;
    try {
      while (finished === undefined) {
        const job = (await manual.getNextJob('manual')) as Job<ShardJob> | undefined;
        if (job === undefined) continue;
        expect(job.name).toBe(SHARD_JOB);
        const result = await playShardJob(
          job.data,
          new PolicyCache(store),
          threads,
          inference,
          THIS_WORKER,
        );
        await job.moveToCompleted(result, 'manual', false);
        if (job.data.iteration === 3) finished = job.id;
      }
    } finally {
      await manual.close();
      await threads.dispose();
      store.disconnect();
    }
    first.child.kill('SIGKILL');
    await first.ended;
    expect(readCheckpoint(runPaths(config).latest).iteration).toBe(2);

    const done: string[] = [];
    await worker(done);
    const resumed = startAyoayo(
      ['train', '--config', file, '--resume', '--queue', redis.url],
      {},
      children,
    );
    expect(await resumed.ended, resumed.out.stderr).toBe(0);
    expect(resumed.out.stdout).toContain('resuming after iteration 2');
    expect(runRecord(config)).toEqual(local);
    // Iterations 3 and 4: 6 shards, the finished one taken as it was, none played twice.
    expect(done).not.toContain(finished);
    expect(done).toHaveLength(5);
    expect(new Set(done).size).toBe(5);
  }, 90_000);

  it('a run started on this machine and resumed on the queue is the same run', async () => {
    const config = tiny('local-then-queue');
    await train(config, { resume: false, stopAfter: 2, ...quiet });
    expect(readCheckpoint(runPaths(config).latest).iteration).toBe(2);
    const done: string[] = [];
    await worker(done);
    await train(config, { resume: true, ...quiet, shardRunner: queueShardRunner(redis.url) });
    expect(runRecord(config)).toEqual(local);
    // Iterations 3 and 4 on the queue: 3 shards each.
    expect(done).toHaveLength(6);
  }, 60_000);

  it("records each shard's backend: a shard played on another backend is named in its place", async () => {
    const config = tiny('mixed-backends', { iterations: 2 });
    let ended = false;
    const run = train(config, {
      resume: false,
      ...quiet,
      shardRunner: queueShardRunner(redis.url),
    });
    const settled = run.finally(() => {
      ended = true;
    });
    settled.catch(() => {});
    // Shard 1 is played on another inference backend (as by a worker with or without
    // onnxruntime-node), the others on this process's.
    const other: InferenceBackend = inference === 'plain' ? 'tfjs' : 'plain';
    const otherName = other === 'plain' ? 'plain' : `tfjs-${(await loadBackend('auto')).name}`;
    const store = new Redis(parseRedisUrl(redis.url));
    const manual = new Worker(THIS_QUEUE, null, { connection: parseRedisUrl(redis.url) });
    const threads = new TrainThreads(1);
    try {
      while (!ended) {
        const job = (await manual.getNextJob('manual', { block: false })) as
          | Job<ShardJob>
          | undefined;
        if (job === undefined) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        const on = job.data.shard === 1 ? other : inference;
        const result = await playShardJob(
          job.data,
          new PolicyCache(store),
          threads,
          on,
          THIS_WORKER,
        );
        await job.moveToCompleted(result, 'manual', false);
      }
    } finally {
      await manual.close();
      await threads.dispose();
      store.disconnect();
    }
    await run;
    const own = local.checkpoints[0]?.metrics[0]?.['self_play/backend'];
    const rows = readCheckpoint(runPaths(config).latest).metrics;
    expect(rows.map((r) => r['self_play/backend'])).toEqual([
      `${own} ${otherName} ${own}`,
      `${own} ${otherName} ${own}`,
    ]);
  }, 60_000);

  it('Redis restarting empty mid-iteration: the shards and the network are sent again, the run is the same', async () => {
    const lines: string[] = [];
    const config = tiny('redis-restart');
    // The earlier tests' workers have closed; their connections may take a moment to go.
    await until(async () => (await queue.getWorkersCount()) === 0, 'the earlier workers to go');
    const run = train(config, {
      resume: false,
      ...quiet,
      shardRunner: queueShardRunner(redis.url, { log: (line) => lines.push(line) }),
    });
    await until(async () => (await queue.getWaitingCount()) === 3, 'the shards to be queued');
    await redis.kill();
    // Back only once the coordinator has found it gone (a fixed pause could be too short on a
    // loaded machine, and the line below would be missing).
    await until(
      () => lines.some((l) => /is unreachable/.test(l)),
      'the coordinator to find Redis gone',
    );
    redis = await startTestRedis([], redis.port);
    await worker();
    await run;
    expect(runRecord(config)).toEqual(local);
    expect(lines).toContain(
      `no worker of ayoayo ${ayoayoVersion()} is connected yet: the self-play shards start when one is (ayoayo worker --queue URL)`,
    );
    expect(lines.filter((l) => /is unreachable/.test(l))).toHaveLength(1);
    expect(lines.some((l) => /is back after \d+s/.test(l))).toBe(true);
    expect(lines).toContain(
      'the queue lost 3 of the 3 self-play shards (Redis restarted without its data?): enqueued them again',
    );
  }, 90_000);

  it('a stale worker beside a current one takes none of the shards: the run is the local one, and the coordinator says once which worker it is', async () => {
    const lines: string[] = [];
    const stale = await startQueueWorker({ url: redis.url, ...FAST_LOCKS, version: '0.0.0-stale' });
    workers.push(stale);
    await worker();
    const config = tiny('stale-worker');
    await train(config, {
      resume: false,
      ...quiet,
      shardRunner: queueShardRunner(redis.url, { log: (line) => lines.push(line) }),
    });
    expect(runRecord(config)).toEqual(local);
    const told = lines.filter((l) => l.includes('0.0.0-stale'));
    expect(told).toEqual([
      expect.stringMatching(
        new RegExp(
          `^worker \\S+/\\d+ runs ayoayo 0\\.0\\.0-stale, not this coordinator's ${ayoayoVersion().replace(/[.+]/g, '\\$&')}: it takes none of these jobs, which wait for a worker of`,
        ),
      ),
    ]);
  }, 60_000);

  it('with only a stale worker the coordinator waits, says why, and the timeout names the workers of its version', async () => {
    const lines: string[] = [];
    workers.push(await startQueueWorker({ url: redis.url, ...FAST_LOCKS, version: '0.0.0-stale' }));
    const config = tiny('stale-only');
    const run = train(config, {
      resume: false,
      ...quiet,
      shardRunner: queueShardRunner(redis.url, {
        log: (line) => lines.push(line),
        timeoutMs: 3000,
      }),
    });
    await expect(run).rejects.toBeInstanceOf(QueueTimeoutError);
    expect(lines).toContain(
      `no worker of ayoayo ${ayoayoVersion()} is connected yet: the self-play shards start when one is (ayoayo worker --queue URL)`,
    );
    expect(lines.filter((l) => /runs ayoayo 0\.0\.0-stale/.test(l))).toHaveLength(1);
    // The stale worker saw nothing: no job of its version's queue.
    const staleQueue = new Queue('ayoayo-0.0.0-stale', { connection: parseRedisUrl(redis.url) });
    expect(await staleQueue.getJobCounts()).toEqual(
      expect.objectContaining({ completed: 0, failed: 0, active: 0, waiting: 0 }),
    );
    await staleQueue.close();
  }, 60_000);

  it('a shard stamped with another version on this queue (put there by hand) is refused, naming both', async () => {
    const config = tiny('forged-version');
    const run = train(config, {
      resume: false,
      ...quiet,
      shardRunner: queueShardRunner(redis.url),
    });
    run.catch(() => {});
    await until(async () => (await queue.getWaitingCount()) === 3, 'the shards to be queued');
    const [job] = await queue.getWaiting(0, 0);
    await (job as Job).updateData({ ...(job as Job).data, version: '0.0.0-other' });
    await worker();
    await expect(run).rejects.toThrow(
      new RegExp(
        `failed after 1 attempt\\(s\\): this worker runs ayoayo ${ayoayoVersion().replace(/[.+]/g, '\\$&')} and refuses a self-play shard job of ayoayo 0\\.0\\.0-other: another version may play other games`,
      ),
    );
  }, 60_000);

  it("a network whose bytes do not match its hash is refused, and the run stops with the worker's reason", async () => {
    const config = tiny('bad-network');
    const run = train(config, {
      resume: false,
      ...quiet,
      shardRunner: queueShardRunner(redis.url),
    });
    run.catch(() => {});
    await until(async () => (await queue.getWaitingCount()) === 3, 'the shards to be queued');
    const store = new Redis(parseRedisUrl(redis.url));
    const keys = await store.keys('ayoayo:policy:*');
    expect(keys).toHaveLength(1);
    const text = (await store.get(keys[0] as string)) as string;
    // One weight changed: still a well-formed policy file, but not the one the jobs name.
    const changed = text.replace(/"kernel":"(.)/, (_, c) => `"kernel":"${c === 'A' ? 'B' : 'A'}`);
    expect(changed).not.toBe(text);
    await store.set(keys[0] as string, changed);
    store.disconnect();
    await worker();
    await expect(run).rejects.toThrow(
      /self-play shard \d of iteration 1 \(job s-[0-9a-f]+\) failed after 3 attempt\(s\): network [0-9a-f]{12} from the queue does not match its checksum/,
    );
  }, 60_000);

  it('with no worker the coordinator says what it waits for, and --queue-timeout ends it clearly', async () => {
    const lines: string[] = [];
    const config = tiny('no-worker-library');
    const started = Date.now();
    const run = train(config, {
      resume: false,
      ...quiet,
      shardRunner: queueShardRunner(redis.url, {
        log: (line) => lines.push(line),
        waitingLineEveryMs: 100,
        timeoutMs: 4000,
      }),
    });
    await expect(run).rejects.toBeInstanceOf(QueueTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^waiting for 3 of 3 self-play shards \(0 running, 0 worker\(s\) connected; none finished for \ds\)$/,
      ),
    );

    const cli = startAyoayo(
      [
        'train',
        '--config',
        configFile(tiny('no-worker')),
        '--queue',
        redis.url,
        '--queue-timeout',
        '1',
      ],
      {},
      children,
    );
    expect(await cli.ended).toBe(1);
    const stderr = cli.out.stderr.trimEnd().split('\n');
    expect(stderr).toContain(
      `no worker of ayoayo ${ayoayoVersion()} is connected yet: the self-play shards start when one is (ayoayo worker --queue URL)`,
    );
    expect(stderr.at(-1)).toMatch(
      /^ayoayo: no worker served the queue for \ds \(the timeout is 1s\): 3 of 3 self-play shards waiting, 0 worker\(s\) connected; start workers \(ayoayo worker --queue URL\), then run the same command again \(the run has no checkpoint yet\)$/,
    );
  }, 60_000);
});
