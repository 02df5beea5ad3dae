import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { runTournament, type TournamentOptions } from '../../eval/tournament.ts';
import { PolicyCache } from '../../queue/policy-transport.ts';
import { checkRedis, parseRedisUrl } from '../../queue/redis.ts';
import { queueChunkRunner } from '../../queue/tournament-runner.ts';
import { runTrainJob } from '../../queue/train-job.ts';
import { ayoayoVersion } from '../../queue/version.ts';
import { type QueueWorker, startQueueWorker } from '../../queue/worker.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { describeWithSystemPackage, REDIS_SERVER } from '../system-packages.ts';
import { startTestRedis, type TestRedis, THIS_WORKER } from './redis-server.ts';

// The kinds that load a network (`policy:`, `az:`, ...), as the command line registers them.
registerNetworkKinds();

const withoutTimes = (games: readonly { seconds: number }[]) =>
  games.map(({ seconds: _, ...g }) => g);
const ENGINE = 'ext:node test/fixtures/ext-engines/first-legal.mjs';

let redis: TestRedis;

async function withWorker<T>(allowExt: boolean, run: () => Promise<T>): Promise<T> {
  const worker: QueueWorker = await startQueueWorker({ url: redis.url, allowExt });
  try {
    return await run();
  } finally {
    await worker.close();
  }
}

describeWithSystemPackage(REDIS_SERVER, 'the queue, secured', () => {
  beforeAll(async () => {
    redis = await startTestRedis(['--requirepass', 's3cret']);
  });

  afterAll(async () => {
    await redis?.stop();
  });

  describe('what the queue carries', () => {
    it('a worker refuses ext: agents unless started with --allow-ext, and runs them with it', async () => {
      const options: TournamentOptions = {
        specs: [ENGINE, 'random'],
        games: 2,
        seed: 4,
        workers: 0,
      };
      await withWorker(false, async () => {
        await expect(
          runTournament({ ...options, runChunks: queueChunkRunner(redis.url) }),
        ).rejects.toThrow(
          /after 1 attempt\(s\): this worker refuses the external engine 'ext:node .*first-legal.mjs' from the queue: start it with --allow-ext/,
        );
      });
      const allowed = await withWorker(true, () =>
        runTournament({ ...options, runChunks: queueChunkRunner(redis.url) }),
      );
      expect(allowed.games).toHaveLength(2);
      expect(allowed.games.every((g) => g.forfeit === null)).toBe(true);
    });

    it('a training run with an ext: opponent is refused before it trains', async () => {
      const config = buildConfig([PRESETS.smoke, { evalOpponents: ['random', ENGINE] }]);
      const store = new Redis(parseRedisUrl(redis.url));
      const policies = new PolicyCache(store);
      const job = { version: ayoayoVersion(), sweep: 's', config, files: {} };
      try {
        await expect(runTrainJob(job, policies, THIS_WORKER)).rejects.toThrow(
          /refuses the external engine 'ext:node .*first-legal.mjs'.*--allow-ext/,
        );
        await expect(
          runTrainJob({ ...job, config: { ...config, seed: -1 } }, policies, THIS_WORKER),
        ).rejects.toThrow(/invalid training run job: config.seed/);
      } finally {
        store.disconnect();
      }
    });

    it('a policy travels as validated data and plays the games a local run plays', async () => {
      const options: TournamentOptions = {
        specs: ['policy:models/pretrained/policy.json', 'greedy'],
        games: 4,
        seed: 6,
        workers: 0,
      };
      const queued = await withWorker(false, () =>
        runTournament({ ...options, runChunks: queueChunkRunner(redis.url) }),
      );
      const local = await runTournament(options);
      expect(withoutTimes(queued.games)).toEqual(withoutTimes(local.games));
    });
  });

  describe('Redis URLs', () => {
    it('reads user, password, database and TLS from the URL', () => {
      expect(parseRedisUrl('rediss://me:p%40ss@redis.example:6380/2')).toMatchObject({
        host: 'redis.example',
        port: 6380,
        username: 'me',
        password: 'p@ss',
        db: 2,
        tls: { servername: 'redis.example' },
      });
      const plain = parseRedisUrl('redis://10.0.0.5');
      expect(plain).toMatchObject({ host: '10.0.0.5', port: 6379 });
      expect(plain.tls).toBeUndefined();
    });

    it.each([
      ['http://127.0.0.1:6379', /unsupported scheme 'http:'/],
      ['redis://127.0.0.1:6379/queue', /the path must be a database number/],
      ['not a url', /invalid queue URL 'not a url'/],
    ])('rejects %s with a clear message', (url, message) => {
      expect(() => parseRedisUrl(url)).toThrow(message);
    });

    it('a wrong password or an unreachable server is reported within seconds, password hidden', async () => {
      const port = redis.port;
      for (const [url, message] of [
        [
          `redis://:wrong@127.0.0.1:${port}`,
          /cannot use the queue at redis:\/\/:\*\*\*@127.0.0.1:\d+\/?: WRONGPASS/,
        ],
        [`redis://127.0.0.1:${port}`, /NOAUTH/],
        [
          'redis://127.0.0.1:1',
          /cannot use the queue at redis:\/\/127.0.0.1:1\/?: connect ECONNREFUSED/,
        ],
      ] as const) {
        const started = performance.now();
        await expect(checkRedis(url)).rejects.toThrow(message);
        expect(performance.now() - started).toBeLessThan(5000);
      }
      await expect(startQueueWorker({ url: 'redis://127.0.0.1:1' })).rejects.toThrow(
        /ECONNREFUSED/,
      );
    });
  });
});
