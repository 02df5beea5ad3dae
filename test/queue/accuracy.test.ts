import { afterAll, beforeAll, expect, it } from 'vitest';
import { readAccuracySet } from '../../eval/accuracy/accuracy-set.ts';
import { runAccuracy } from '../../eval/accuracy/benchmark.ts';
import { sampleAccuracySet } from '../../eval/accuracy/sample.ts';
import { ACCURACY_SETS } from '../../eval/accuracy/shipped-sets.ts';
import { queueAccuracyRunner } from '../../queue/accuracy-runner.ts';
import { type QueueWorker, startQueueWorker } from '../../queue/worker.ts';
import { describeWithSystemPackage, REDIS_SERVER } from '../system-packages.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

let redis: TestRedis;
let workers: QueueWorker[] = [];

describeWithSystemPackage(REDIS_SERVER, 'the accuracy benchmark through the queue', () => {
  beforeAll(async () => {
    redis = await startTestRedis();
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await redis?.stop();
  });

  it('with two workers gives the moves and scores of a local run with the same seed', async () => {
    workers = [
      await startQueueWorker({ url: redis.url }),
      await startQueueWorker({ url: redis.url }),
    ];
    const set = sampleAccuracySet(readAccuracySet(ACCURACY_SETS.main as string), 60, 'queue');
    // Split as for 4 threads: several chunks per agent.
    const options = { specs: ['random', 'greedy', 'minimax:2'], set, seed: 3, workers: 4 };
    const local = await runAccuracy({ ...options, workers: 0 });
    let done = 0;
    const queued = await runAccuracy({
      ...options,
      runChunks: queueAccuracyRunner(redis.url),
      onProgress: (p) => {
        done = p.done;
      },
    });
    expect(done).toBe(180);
    const scores = (r: typeof local) => r.agents.map(({ msPerMove: _, ...a }) => a);
    expect(scores(queued)).toEqual(scores(local));
    expect(queued.agents.map((a) => a.overall.positions)).toEqual([60, 60, 60]);
  });
});
