import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTournament, type TournamentOptions } from '../../eval/tournament.ts';
import { queueChunkRunner } from '../../queue/tournament-runner.ts';
import { type QueueWorker, startQueueWorker } from '../../queue/worker.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

const withoutTimes = (games: readonly { seconds: number }[]) =>
  games.map(({ seconds: _, ...g }) => g);

let redis: TestRedis;
let workers: QueueWorker[] = [];

beforeAll(async () => {
  redis = await startTestRedis();
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  await redis?.stop();
});

describe('a tournament through the queue', () => {
  it('with two workers plays the same games as a local run with the same seed', async () => {
    workers = [
      await startQueueWorker({ url: redis.url }),
      await startQueueWorker({ url: redis.url }),
    ];
    const options: TournamentOptions = {
      specs: ['random', 'greedy', 'minimax:1'],
      games: 8,
      seed: 5,
      // The queue gets several chunks per pairing (sized as for 4 workers).
      workers: 4,
    };
    const local = await runTournament({ ...options, workers: 0 });
    let done = 0;
    const queued = await runTournament({
      ...options,
      runChunks: queueChunkRunner(redis.url),
      onProgress: (p) => {
        done = p.done;
      },
    });
    expect(done).toBe(24);
    expect(withoutTimes(queued.games)).toEqual(withoutTimes(local.games));
    expect(queued.pairings).toEqual(local.pairings);
    expect(queued.ratings).toEqual(local.ratings);
  });
});
