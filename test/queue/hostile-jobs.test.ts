import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Job, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { runTournament } from '../../eval/tournament.ts';
import { ACCURACY_JOB, CHUNK_JOB, SHARD_JOB, TRAIN_JOB } from '../../queue/jobs.ts';
import { sharePolicy, storePolicy } from '../../queue/policy-transport.ts';
import { parseRedisUrl } from '../../queue/redis.ts';
import { removeOrphanFolders, TEMP_RUN_PREFIX } from '../../queue/temp-folders.ts';
import { queueChunkRunner } from '../../queue/tournament-runner.ts';
import { ayoayoVersion } from '../../queue/version.ts';
import { type QueueWorker, startQueueWorker } from '../../queue/worker.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { describeWithSystemPackage, REDIS_SERVER } from '../system-packages.ts';
import { startTestRedis, type TestRedis, THIS_QUEUE } from './redis-server.ts';

// The kinds that load a network (`policy:`, `az:`, ...), as the command line registers them.
registerNetworkKinds();

// Jobs as an attacker who can write to the worker's Redis would put them: raw
// data through the project's own bullmq, on the queue a current worker serves.

let redis: TestRedis;
let queue: Queue;
let events: QueueEvents;
let worker: QueueWorker;
const lines: string[] = [];
const PRETRAINED = 'models/pretrained/policy.json';

let next = 0;
/** Puts raw job data on the queue and waits until the worker is done with it: its error, or null. */
async function outcome(name: string, data: unknown): Promise<{ error: string | null; job: Job }> {
  const job = await queue.add(name, data, { jobId: `hostile-${next++}`, attempts: 1 });
  try {
    await job.waitUntilFinished(events, 60_000);
    return { error: null, job };
  } catch (err) {
    return { error: (err as Error).message, job };
  }
}

const version = ayoayoVersion();
const settings = {
  seed: 1,
  openingPlies: 0,
  rules: { captureSeedStays: false, leftoverTo: 'opponent' },
  maxPlies: 200,
};
const chunk = (a: string, b = 'random') => ({
  version,
  tournament: '0123456789abcdef',
  index: 0,
  chunk: {
    labels: { pairing: 0, a, b },
    games: [{ game: 0, opening: 0, aSeat: 0 }],
    settings,
  },
  files: {},
});

describeWithSystemPackage(REDIS_SERVER, 'a worker takes hostile jobs without harm', () => {
  beforeAll(async () => {
    redis = await startTestRedis();
    queue = new Queue(THIS_QUEUE, { connection: parseRedisUrl(redis.url) });
    events = new QueueEvents(THIS_QUEUE, { connection: parseRedisUrl(redis.url) });
    await events.waitUntilReady();
    // A cap far below the machine's: the oversized training runs must be refused by it.
    worker = await startQueueWorker({
      url: redis.url,
      maxJobMemory: 1e9,
      log: (line) => lines.push(line),
    });
  });

  afterAll(async () => {
    await worker?.close();
    await events?.close();
    await queue?.close();
    await redis?.stop();
  });

  it('a spec naming a file on the worker reads nothing there: /dev/zero, /etc/passwd and a missing file get one answer', async () => {
    const before = process.memoryUsage().rss;
    const answers: (string | null)[] = [];
    for (const spec of [
      'az:/dev/zero,sims=1',
      'az:/etc/passwd,sims=1',
      'az:/nonexistent/policy.json,sims=1',
      'policy:/dev/zero',
      `minimax:2,eval=${PRETRAINED}`,
    ]) {
      answers.push((await outcome(CHUNK_JOB, chunk(spec))).error);
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(200e6);
    expect(answers).toEqual(
      ['/dev/zero', '/etc/passwd', '/nonexistent/policy.json', '/dev/zero', PRETRAINED].map(
        (file) =>
          `the policy file ${file} was not sent with the job: a queue worker reads only the files its job carries`,
      ),
    );
  }, 60_000);

  it("the same through a training run's baselines", async () => {
    const config = buildConfig([
      PRESETS.smoke,
      { evalOpponents: ['random', 'az:/dev/zero,sims=1'] },
    ]);
    const { error } = await outcome(TRAIN_JOB, { version, sweep: 's', config, files: {} });
    expect(error).toMatch(
      /^evalOpponents \(--eval-opponents\): the policy file \/dev\/zero was not sent with the job/,
    );
  }, 60_000);

  it('a file the job does carry is read from the store by its hash, and the games are the local ones', async () => {
    const shared = sharePolicy(PRETRAINED);
    const store = new Redis(parseRedisUrl(redis.url));
    await storePolicy(store, shared);
    store.disconnect();
    const spec = `az:${PRETRAINED},sims=2`;
    const { error, job } = await outcome(CHUNK_JOB, {
      ...chunk(spec),
      files: { [PRETRAINED]: shared.sha },
    });
    expect(error).toBeNull();
    const local = await runTournament({
      specs: [spec, 'random'],
      games: 2,
      seed: 1,
      workers: 0,
      openingPlies: 0,
    });
    const played = (await queue.getJob(job.id as string))?.returnvalue as { winner: unknown }[];
    expect(played[0]?.winner).toBe(local.games.find((g) => g.game === 0)?.winner);
  }, 60_000);

  it('a training run too large for the worker is refused before it allocates, naming the settings', async () => {
    const before = process.memoryUsage().rss;
    const wide = buildConfig([
      PRESETS.smoke,
      { algorithm: 'expert-iteration', maxPlies: 10000, expertIteration: { gamesAtOnce: 8192 } },
    ]);
    const deep = buildConfig([
      PRESETS.smoke,
      {
        algorithm: 'expert-iteration',
        hidden: Array.from({ length: 8 }, () => 4096),
        expertIteration: { movesPerIteration: 1 << 25 },
      },
    ]);
    const wideError = (await outcome(TRAIN_JOB, { version, sweep: 's', config: wide, files: {} }))
      .error;
    const deepError = (await outcome(TRAIN_JOB, { version, sweep: 's', config: deep, files: {} }))
      .error;
    expect(process.memoryUsage().rss - before).toBeLessThan(200e6);
    expect(wideError).toMatch(
      /^this training run needs about \d+\.\d GB of memory, more than this worker's --max-job-memory \(1\.0 GB\); most of it is self-play games in progress, \d+\.\d GB \(gamesAtOnce 8192, maxPlies 10000\): lower gamesAtOnce or maxPlies$/,
    );
    expect(deepError).toMatch(
      /more than this worker's --max-job-memory \(1\.0 GB\); most of it is the replay window, and its copy in a checkpoint, \d+\.\d GB \(movesPerIteration 33554432, replayIterations 1\)/,
    );
  }, 60_000);

  it('a shard of a run too large for the worker is refused the same way', async () => {
    const config = buildConfig([
      PRESETS.smoke,
      { algorithm: 'expert-iteration', maxPlies: 10000, expertIteration: { gamesAtOnce: 8192 } },
    ]);
    const { error } = await outcome(SHARD_JOB, {
      version,
      iteration: 1,
      shard: 0,
      config,
      network: '0'.repeat(64),
      carry: null,
      rngState: [1, 2, 3, 4],
      moves: 1000,
    });
    expect(error).toMatch(
      /^self-play shard 0 of iteration 1 of run smoke: this self-play shard needs about \d+\.\d GB of memory, more than this worker's --max-job-memory/,
    );
  }, 60_000);

  it('a job of another version, or of none, is refused naming both', async () => {
    for (const [stamp, named] of [
      ['0.0.0-old', 'ayoayo 0.0.0-old'],
      [undefined, 'no version'],
    ] as const) {
      const { version: _, ...rest } = chunk('random', 'greedy');
      const { error } = await outcome(
        CHUNK_JOB,
        stamp === undefined ? rest : { ...rest, version: stamp },
      );
      expect(error).toBe(
        `this worker runs ayoayo ${version} and refuses a tournament chunk job of ${named}: another version may play other games; run the same version on the coordinator and every worker`,
      );
    }
    const { error } = await outcome(ACCURACY_JOB, { version: '0.0.0-old' });
    expect(error).toMatch(/refuses an accuracy chunk job of ayoayo 0\.0\.0-old/);
  }, 60_000);

  it('a job whose stored data is not JSON fails instead of staying active', async () => {
    const job = await queue.add(CHUNK_JOB, chunk('random', 'greedy'), {
      jobId: 'not-json',
      attempts: 1,
      delay: 60_000,
    });
    const store = new Redis(parseRedisUrl(redis.url));
    // As an attacker writes it: the job's hash by hand, then due at once.
    await store.hset(`bull:${THIS_QUEUE}:not-json`, 'data', '{"version": oops');
    store.disconnect();
    await job.promote();
    await expect(job.waitUntilFinished(events, 30_000)).rejects.toThrow(
      "job not-json's stored data is not JSON: refused",
    );
    expect(await queue.getJobState('not-json')).toBe('failed');
  }, 60_000);

  it('an honest job after the hostile ones completes', async () => {
    const { error, job } = await outcome(CHUNK_JOB, chunk('random', 'greedy'));
    expect(error).toBeNull();
    expect(await queue.getJobState(job.id as string)).toBe('completed');
  }, 60_000);

  it('a tournament through a coordinator sends the files its az: and eval= specs read', async () => {
    const options = {
      specs: [`az:${PRETRAINED},sims=2`, `minimax:1,eval=${PRETRAINED}`],
      games: 2,
      seed: 3,
      workers: 0,
    };
    const queued = await runTournament({ ...options, runChunks: queueChunkRunner(redis.url) });
    const local = await runTournament(options);
    const strip = (games: readonly { seconds: number }[]) => games.map(({ seconds: _, ...g }) => g);
    expect(strip(queued.games)).toEqual(strip(local.games));
  }, 60_000);
});

describe('temporary folders of a worker killed mid-run', () => {
  it('the next worker removes those of dead processes and keeps those of live ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-temp-folders-'));
    try {
      // pid 2^22 + 1 is above Linux's largest: no process has it.
      const dead = join(dir, `${TEMP_RUN_PREFIX}-4194305-123-abc`);
      const live = join(dir, `${TEMP_RUN_PREFIX}-${process.pid}-x-def`);
      const other = join(dir, 'ayoayo-something-else');
      for (const folder of [dead, live, other]) {
        mkdirSync(folder);
        writeFileSync(join(folder, 'file'), 'x');
      }
      expect(removeOrphanFolders(TEMP_RUN_PREFIX, dir)).toEqual([dead]);
      expect([existsSync(dead), existsSync(live), existsSync(other)]).toEqual([false, true, true]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
