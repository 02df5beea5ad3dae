import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { QUEUE_NAME } from '../queue/jobs.ts';
import { checkRedis, parseRedisUrl } from '../queue/redis.ts';

/** What the queue benchmarks share: a throwaway redis-server and `ayoayo worker` processes. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface BenchRedis {
  readonly url: string;
  stop(): void;
}

/** Starts Debian's redis-server on a free loopback port, without persistence, and waits until it answers. */
export async function startBenchRedis(): Promise<BenchRedis> {
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        resolve(typeof address === 'object' && address !== null ? address.port : 0),
      );
    });
  });
  const url = `redis://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-bench-redis-'));
  const redis = spawn(
    'redis-server',
    [
      '--port',
      String(port),
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
  const stop = (): void => {
    redis.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    try {
      await checkRedis(url);
      return { url, stop };
    } catch (err) {
      if (i > 100) {
        stop();
        throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Starts `count` `ayoayo worker` processes on `url` and waits until each is connected. */
export async function startWorkers(url: string, count: number): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ['bin/ayoayo.js', 'worker', '--queue', url], {
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

/** Stops worker processes (SIGTERM: each finishes its job in hand) and waits for them to exit. */
export async function stopWorkers(workers: readonly ChildProcess[]): Promise<void> {
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
export async function forgetJobs(url: string): Promise<void> {
  const queue = new Queue(QUEUE_NAME, { connection: parseRedisUrl(url) });
  // A failed connection rejects the obliterate below; without a listener it would also print.
  queue.on('error', () => {});
  await queue.obliterate({ force: true });
  await queue.close();
}
