import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { queueName } from '../queue/jobs.ts';
import { parseRedisUrl } from '../queue/redis.ts';
import { ayoayoVersion } from '../queue/version.ts';

/** What the queue benchmarks share besides their redis-server (bench/redis-server.ts): `ayoayo worker` processes. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

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
  const queue = new Queue(queueName(ayoayoVersion()), { connection: parseRedisUrl(url) });
  // A failed connection rejects the obliterate below; without a listener it would also print.
  queue.on('error', () => {});
  await queue.obliterate({ force: true });
  await queue.close();
}
