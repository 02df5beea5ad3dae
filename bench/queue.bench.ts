import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { runTournament } from '../eval/tournament.ts';
import { QUEUE_NAME } from '../queue/jobs.ts';
import { checkRedis, parseRedisUrl } from '../queue/redis.ts';
import { queueChunkRunner } from '../queue/tournament-runner.ts';
import type { Emit } from './types.ts';

/**
 * Tournaments through the queue (needs Debian's redis-server): games/s of a
 * search pairing locally and with 1, 2 and 4 `ayoayo worker` processes (started
 * before the clock), and the queue's overhead per chunk (random vs random in
 * 2-game chunks, against the same games played in one thread).
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PORT = await new Promise<number>((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const address = server.address();
    server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
  });
});
const URL_ = `redis://127.0.0.1:${PORT}`;

async function startWorkers(count: number): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ['bin/ayoayo.js', 'worker', '--queue', URL_], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      return new Promise<ChildProcess>((resolve) => {
        child.stderr?.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('worker on')) resolve(child);
        });
      });
    }),
  );
}

async function stopWorkers(workers: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          w.once('exit', () => resolve());
          w.kill('SIGTERM');
        }),
    ),
  );
}

/** Removes every job: the next measurement must play its games. */
async function forget(): Promise<void> {
  const queue = new Queue(QUEUE_NAME, { connection: parseRedisUrl(URL_) });
  // A failed connection rejects the obliterate below; without a listener it would also print.
  queue.on('error', () => {});
  await queue.obliterate({ force: true });
  await queue.close();
}

export async function run(emit: Emit): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-bench-redis-'));
  const redis = spawn(
    'redis-server',
    [
      '--port',
      String(PORT),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { stdio: 'ignore' },
  );
  try {
    for (let i = 0; ; i++) {
      try {
        await checkRedis(URL_);
        break;
      } catch (err) {
        if (i > 100) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
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
      const workers = await startWorkers(count);
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
      await forget();
    }
    const fast = { specs: ['random', 'greedy'], games: 400, seed: 2 };
    const here = performance.now();
    await runTournament({ ...fast, workers: 0 });
    const local = (performance.now() - here) / 1000;
    const workers = await startWorkers(1);
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
    redis.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}
