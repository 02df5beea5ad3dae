import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRedis } from '../queue/redis.ts';

/** A throwaway redis-server (for the queue benches and tests): its own port, folder and no persistence. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  /** kill -9: the server dies at once, its data with it (start another on `port` to come back empty). */
  kill(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts Debian's redis-server (see .ci/run) on a loopback port with its own
 * folder and no persistence, and waits until it answers; `port` to reuse a
 * dead one's.
 */
export async function startRedisServer(
  extraArgs: readonly string[] = [],
  port?: number,
): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-redis-'));
  port ??= await freePort();
  const child: ChildProcess = spawn(
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
      ...extraArgs,
    ],
    { stdio: 'ignore' },
  );
  let spawnError: Error | null = null;
  child.once('error', (err) => {
    spawnError = err;
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const password = extraArgs.includes('--requirepass')
    ? extraArgs[extraArgs.indexOf('--requirepass') + 1]
    : undefined;
  const url = `redis://${password !== undefined ? `:${password}@` : ''}127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await checkRedis(url);
      break;
    } catch (err) {
      if (spawnError !== null) {
        rmSync(dir, { recursive: true, force: true });
        throw new Error(
          `redis-server could not start (${(spawnError as Error).message}): install Debian's redis-server`,
        );
      }
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
        throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
