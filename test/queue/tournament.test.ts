import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeTournament } from '../../eval/report.ts';
import { runTournament, type TournamentOptions } from '../../eval/tournament.ts';
import { queueChunkRunner } from '../../queue/tournament-runner.ts';
import { type QueueWorker, startQueueWorker } from '../../queue/worker.ts';
import { describeWithSystemPackage, REDIS_SERVER } from '../system-packages.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

/** settings.workers: the local run below plays in its thread, the queued one is split as for 4. */
const TIMES_AND_THREADS = ['seconds', 'elapsedSeconds', 'workers'];

/** A report file with its timings blanked: everything else must be byte for byte the same. */
function reportWithoutTimes(dir: string, file: string): string {
  const text = readFileSync(join(dir, file), 'utf8');
  if (file.endsWith('.json')) {
    return JSON.stringify(JSON.parse(text), (k, v) => (TIMES_AND_THREADS.includes(k) ? 0 : v));
  }
  // games.csv: the seconds column.
  return text.replace(/,\d+(\.\d+)?(e-\d+)?,(true|false),/g, ',S,$3,');
}

let redis: TestRedis;
let workers: QueueWorker[] = [];

describeWithSystemPackage(REDIS_SERVER, 'a tournament through the queue', () => {
  beforeAll(async () => {
    redis = await startTestRedis();
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await redis?.stop();
  });

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
    const dirs = [queued, local].map((result) => {
      const dir = mkdtempSync(join(tmpdir(), 'ayoayo-queue-report-'));
      writeTournament(dir, result);
      return dir;
    });
    try {
      for (const file of ['games.csv', 'summary.csv', 'ratings.csv', 'results.json']) {
        const [fromQueue, fromHere] = dirs.map((dir) => reportWithoutTimes(dir, file));
        expect(fromQueue, file).toBe(fromHere);
      }
    } finally {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
