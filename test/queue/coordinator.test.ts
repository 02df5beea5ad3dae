import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runTournament, type TournamentOptions } from '../../eval/tournament.ts';
import { playChunkJob } from '../../queue/chunk-job.ts';
import { PolicyCache } from '../../queue/policy-transport.ts';
import { parseRedisUrl } from '../../queue/redis.ts';
import { queueChunkRunner } from '../../queue/tournament-runner.ts';
import { ayoayoVersion } from '../../queue/version.ts';
import { type QueueWorker, startQueueWorker } from '../../queue/worker.ts';
import { startAyoayo, until } from '../ayoayo-command.ts';
import { describeWithSystemPackage, REDIS_SERVER } from '../system-packages.ts';
import { startTestRedis, type TestRedis, THIS_QUEUE, THIS_WORKER } from './redis-server.ts';

// The coordinator's side of the queue's faults: Redis killed and back empty,
// Redis away for a while, a job a worker refuses, Ctrl-C while waiting, and the
// queue's URL (and password) kept out of the process list.

const ENGINE = 'ext:node test/fixtures/ext-engines/first-legal.mjs';
const withoutTimes = (games: readonly { seconds: number }[]) =>
  games.map(({ seconds: _, ...g }) => g);

let redis: TestRedis;
let workers: QueueWorker[] = [];
const children: ChildProcessWithoutNullStreams[] = [];

/** `ayoayo ...args` as a child process, killed after each test if still running. */
const ayoayo = (args: readonly string[], env: NodeJS.ProcessEnv = {}) =>
  startAyoayo(args, env, children);

const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

describeWithSystemPackage(REDIS_SERVER, 'the queue coordinator and workers', () => {
  beforeAll(async () => {
    redis = await startTestRedis();
  });

  afterEach(async () => {
    await Promise.all(workers.map((w) => w.close()));
    workers = [];
    for (const child of children.splice(0)) child.kill('SIGKILL');
    const queue = new Queue(THIS_QUEUE, { connection: parseRedisUrl(redis.url) });
    await queue.obliterate({ force: true });
    await queue.close();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  describe('a coordinator whose Redis goes away', () => {
    it('enqueues again the chunks Redis lost when it comes back empty (kill -9), each counted once', async () => {
      const options: TournamentOptions = {
        specs: ['random', 'greedy', 'minimax:2'],
        games: 8,
        seed: 9,
        workers: 4,
      };
      const lines: string[] = [];
      let done = 0;
      const queued = runTournament({
        ...options,
        runChunks: queueChunkRunner(redis.url, { log: (line) => lines.push(line) }),
        onProgress: (p) => {
          done = p.done;
        },
      });
      const queue = new Queue(THIS_QUEUE, { connection: parseRedisUrl(redis.url) });
      await until(async () => (await queue.getWaitingCount()) >= 3, 'the chunks to be queued');
      const chunks = await queue.getWaitingCount();
      // Two chunks finish before Redis dies: the coordinator has their results, Redis loses them.
      const store = new Redis(parseRedisUrl(redis.url));
      const manual = new Worker(THIS_QUEUE, null, { connection: parseRedisUrl(redis.url) });
      let played = 0;
      for (let i = 0; i < 2; i++) {
        const job = (await manual.getNextJob('manual')) as Job;
        const records = await playChunkJob(job, new PolicyCache(store), THIS_WORKER);
        played += records.length;
        await job.moveToCompleted(records, 'manual', false);
      }
      await manual.close();
      store.disconnect();
      await queue.close();
      // Two quick chunks report no progress on the way (a report comes after 200 ms): `done`
      // counts their results, taken by the coordinator.
      await until(() => done >= played, 'the coordinator to take the two results');
      await new Promise((resolve) => setTimeout(resolve, 500));

      await redis.kill();
      // Back only once the coordinator has found it gone: a fixed pause could be too short on a
      // loaded machine.
      await until(
        () => lines.some((l) => /is unreachable/.test(l)),
        'the coordinator to find Redis gone',
      );
      redis = await startTestRedis([], redis.port);
      workers.push(await startQueueWorker({ url: redis.url }));
      const result = await queued;

      const local = await runTournament({ ...options, workers: 0 });
      expect(withoutTimes(result.games)).toEqual(withoutTimes(local.games));
      const again = new Queue(THIS_QUEUE, { connection: parseRedisUrl(redis.url) });
      const completed = await again.getCompleted(0, -1);
      await again.close();
      // Only the chunks whose results were lost ran again, each once.
      expect(completed).toHaveLength(chunks - 2);
      expect(completed.every((j) => j.attemptsMade === 1)).toBe(true);
      expect(lines.filter((l) => /is unreachable/.test(l))).toHaveLength(1);
      expect(lines.some((l) => /is back after \d+s/.test(l))).toBe(true);
      expect(lines).toContain(
        `the queue lost ${chunks - 2} of the ${chunks} chunks (Redis restarted without its data?): enqueued them again`,
      );
    }, 60_000);

    it('ayoayo eval says once that Redis is unreachable, no raw errors, and ends when it is back', async () => {
      const run = ayoayo([
        'eval',
        '--agents',
        'random,greedy',
        '--games',
        '8',
        '--queue',
        redis.url,
        '--quiet',
      ]);
      await until(() => run.out.stderr.includes('is connected yet'), 'the chunks to be queued');
      await redis.kill();
      await until(() => run.out.stderr.includes('is unreachable'), 'the command to notice');
      // Down a while longer: ioredis tries again every 0.2-2 s, and each try used to print a
      // multi-line stack trace.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      redis = await startTestRedis([], redis.port);
      workers.push(await startQueueWorker({ url: redis.url }));
      expect(await run.ended).toBe(0);
      const { stderr, stdout } = run.out;
      expect(count(stderr, /is unreachable/g), stderr).toBe(1);
      expect(count(stderr, /is back after/g), stderr).toBe(1);
      expect(stderr).toMatch(/the queue lost \d+ of the \d+ chunks/);
      expect(stderr).not.toMatch(/Error:|\n\s+at /);
      expect(stdout).toMatch(/random vs greedy\s+8/);
    }, 60_000);
  });

  describe('a worker whose Redis goes away', () => {
    it('says so once, and still stops on SIGTERM (a close would wait for Redis forever)', async () => {
      const worker = ayoayo(['worker', '--queue', redis.url]);
      await until(() => worker.out.stderr.includes('worker on'), 'the worker to start');
      await redis.kill();
      try {
        await until(() => worker.out.stderr.includes('is unreachable'), 'the worker to notice');
        await new Promise((resolve) => setTimeout(resolve, 1000));
        worker.child.kill('SIGTERM');
        expect(await worker.ended).toBe(0);
        expect(count(worker.out.stderr, /is unreachable/g), worker.out.stderr).toBe(1);
        expect(worker.out.stderr).not.toMatch(/Error:|\n\s+at /);
      } finally {
        redis = await startTestRedis([], redis.port);
      }
    }, 60_000);
  });

  describe('what the coordinator says', () => {
    it('a job a worker refuses is one line naming the refusal, not a bug (eval)', async () => {
      workers.push(await startQueueWorker({ url: redis.url }));
      const run = ayoayo([
        'eval',
        '--agents',
        `${ENGINE},random`,
        '--games',
        '2',
        '--queue',
        redis.url,
      ]);
      expect(await run.ended).toBe(1);
      expect(run.out.stderr.trimEnd().split('\n')).toEqual([
        `ayoayo: chunk 0 (${ENGINE} vs random, games 0-1) failed after 1 attempt(s): this worker refuses the external engine '${ENGINE}' from the queue: start it with --allow-ext to run ext: agents`,
      ]);
    }, 60_000);

    it('a run a worker refuses is one line naming the refusal, not a bug (sweep)', async () => {
      workers.push(await startQueueWorker({ url: redis.url }));
      const dir = mkdtempSync(join(tmpdir(), 'ayoayo-coordinator-'));
      const config = join(dir, 'sweep.json');
      writeFileSync(
        config,
        JSON.stringify({
          name: 'refused',
          runsDir: join(dir, 'runs'),
          preset: 'smoke',
          base: { evalOpponents: [ENGINE] },
          grid: { learningRate: [0.001] },
        }),
      );
      const run = ayoayo(['sweep', '--config', config, '--queue', redis.url]);
      expect(await run.ended).toBe(1);
      expect(run.out.stderr.trimEnd().split('\n')).toEqual([
        `ayoayo: refused/run-01 failed after 1 attempt(s): this worker refuses the external engine '${ENGINE}' from the queue: start it with --allow-ext to run ext: agents`,
      ]);
    }, 60_000);

    it('Ctrl-C while waiting says what was done and how to go on, and exits 130', async () => {
      const run = ayoayo([
        'eval',
        '--agents',
        'random,greedy,minimax:2',
        '--games',
        '8',
        '--queue',
        redis.url,
      ]);
      await until(() => run.out.stderr.includes('is connected yet'), 'the chunks to be queued');
      run.child.kill('SIGINT');
      expect(await run.ended).toBe(130);
      const last = run.out.stderr.trimEnd().split('\n').at(-1);
      expect(last).toMatch(
        /^ayoayo: the coordinator was stopped with 0 of \d+ chunks \(0 of 24 games\) finished; the other jobs stay queued and the workers go on with them: run the same command again to collect them \(finished jobs are kept 7 days\)$/,
      );
      // The jobs are still there for the next coordinator.
      const queue = new Queue(THIS_QUEUE, { connection: parseRedisUrl(redis.url) });
      expect(await queue.getWaitingCount()).toBeGreaterThan(0);
      await queue.close();
    }, 60_000);
  });

  describe('a coordinator waiting', () => {
    it('says what it waits for when nothing finishes, then stops with what was done', async () => {
      const lines: string[] = [];
      const stop = new AbortController();
      const waiting = runTournament({
        specs: ['random', 'greedy'],
        games: 4,
        seed: 2,
        workers: 1,
        runChunks: queueChunkRunner(redis.url, {
          log: (line) => lines.push(line),
          signal: stop.signal,
          waitingLineEveryMs: 1000,
        }),
      });
      await until(() => lines.some((l) => l.startsWith('waiting for')), 'a waiting line', 15_000);
      stop.abort();
      await expect(waiting).rejects.toThrow(
        'the coordinator was stopped with 0 of 2 chunks (0 of 4 games) finished',
      );
      expect(lines[0]).toBe(
        `no worker of ayoayo ${ayoayoVersion()} is connected yet: the chunks start when one is (ayoayo worker --queue URL)`,
      );
      expect(lines.find((l) => l.startsWith('waiting for'))).toMatch(
        /^waiting for 2 of 2 chunks \(0 running, 0 worker\(s\) connected; none finished for \d+s\)$/,
      );
    }, 30_000);
  });

  describe("the queue's URL out of the process list", () => {
    let secured: TestRedis;
    beforeAll(async () => {
      secured = await startTestRedis(['--requirepass', 'hunter2-secret']);
    });
    afterAll(async () => {
      await secured?.stop();
    });

    it('comes from $AYOAYO_QUEUE (worker, eval --queue) or a file (--queue-file)', async () => {
      const env = { AYOAYO_QUEUE: secured.url };
      const worker = ayoayo(['worker', '--quiet'], env);
      await until(() => worker.out.stderr.includes('worker on'), 'the worker to start');
      const cmdline = readFileSync(`/proc/${worker.child.pid}/cmdline`, 'utf8');
      expect(cmdline).not.toContain('hunter2-secret');
      expect(worker.out.stderr).toContain('worker on redis://:***@127.0.0.1');

      const fromEnv = ayoayo(['eval', '--agents', 'random,greedy', '--games', '2', '--queue'], env);
      expect(await fromEnv.ended).toBe(0);
      expect(fromEnv.out.stdout).toMatch(/random vs greedy\s+2/);

      const file = join(mkdtempSync(join(tmpdir(), 'ayoayo-queue-file-')), 'queue-url');
      writeFileSync(file, `${secured.url}\n`);
      const fromFile = ayoayo([
        'eval',
        '--agents',
        'random,greedy',
        '--games',
        '4',
        '--queue-file',
        file,
      ]);
      expect(await fromFile.ended).toBe(0);
      expect(fromFile.out.stdout).toMatch(/random vs greedy\s+4/);
    }, 60_000);
  });
});
