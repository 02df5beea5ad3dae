import { runTournament } from '../eval/tournament.ts';
import { queueChunkRunner } from '../queue/tournament-runner.ts';
import { forgetJobs, startWorkers, stopWorkers } from './queue-setup.ts';
import { startRedisServer } from './redis-server.ts';
import type { Emit } from './types.ts';

/**
 * Tournaments through the queue (needs Debian's redis-server): games/s of a
 * search pairing locally and with 1, 2 and 4 `ayoayo worker` processes (started
 * before the clock), and the queue's overhead per chunk (random vs random in
 * 2-game chunks, against the same games played in one thread).
 */
export async function run(emit: Emit): Promise<void> {
  const redis = await startRedisServer();
  const URL_ = redis.url;
  try {
    const search = { specs: ['minimax:6', 'mcts:1000'], games: 64, seed: 1 };
    for (const workers of [0, 2]) {
      const started = performance.now();
      await runTournament({ ...search, workers });
      const seconds = (performance.now() - started) / 1000;
      emit({
        name: `local, ${workers} worker threads`,
        unit: 'games/s',
        value: search.games / seconds,
      });
    }
    for (const count of [1, 2, 4]) {
      const workers = await startWorkers(URL_, count);
      const started = performance.now();
      // Chunks sized as for 8 workers: 8 games each.
      await runTournament({ ...search, workers: 8, runChunks: queueChunkRunner(URL_) });
      const seconds = (performance.now() - started) / 1000;
      emit({
        name: `queue, ${count} worker processes`,
        unit: 'games/s',
        value: search.games / seconds,
      });
      await stopWorkers(workers);
      // The same tournament again would be answered from the finished jobs.
      await forgetJobs(URL_);
    }
    const fast = { specs: ['random', 'greedy'], games: 400, seed: 2 };
    const here = performance.now();
    await runTournament({ ...fast, workers: 0 });
    const local = (performance.now() - here) / 1000;
    const workers = await startWorkers(URL_, 1);
    const queued = performance.now();
    // 2-game chunks (sized as for 100 workers): 200 jobs, counted as they are enqueued.
    let chunks = 0;
    const runner = queueChunkRunner(URL_);
    await runTournament({
      ...fast,
      workers: 100,
      runChunks: (all, onGames) => {
        chunks = all.length;
        return runner(all, onGames);
      },
    });
    const through = (performance.now() - queued) / 1000;
    await stopWorkers(workers);
    emit({
      name: `queue overhead per chunk (1 worker, ${chunks} chunks)`,
      unit: 'ms',
      value: ((through - local) * 1000) / chunks,
    });
  } finally {
    await redis.stop();
  }
}
