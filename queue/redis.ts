import { isIP } from 'node:net';
import type { RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { QueueConnectionError } from './errors.ts';

/** How long the first connection may take before the URL is reported as unreachable. */
export const CONNECT_TIMEOUT_MS = 3000;

const URL_FORM = 'redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] or rediss://... (TLS)';

export { QueueConnectionError } from './errors.ts';

/** A Redis URL with its password hidden, for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * Turns `redis://` or `rediss://` (TLS) URLs into ioredis options for BullMQ:
 * user, password and database number included. Commands wait for a lost
 * connection to come back (a worker outlives a Redis restart), which is why
 * `checkRedis` must be called first: ioredis would otherwise retry an unreachable
 * host forever, silently.
 */
export function parseRedisUrl(url: string): RedisOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QueueConnectionError(`invalid queue URL '${url}': expected ${URL_FORM}`);
  }
  const tls = parsed.protocol === 'rediss:';
  if (!tls && parsed.protocol !== 'redis:') {
    throw new QueueConnectionError(
      `invalid queue URL '${redactRedisUrl(url)}': unsupported scheme '${parsed.protocol}', expected ${URL_FORM}`,
    );
  }
  if (parsed.hostname === '') {
    throw new QueueConnectionError(`invalid queue URL '${redactRedisUrl(url)}': no host`);
  }
  const path = parsed.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d+$/.test(path)) {
    throw new QueueConnectionError(
      `invalid queue URL '${redactRedisUrl(url)}': the path must be a database number, got '/${path}'`,
    );
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    host,
    port: parsed.port === '' ? 6379 : Number(parsed.port),
    ...(parsed.username !== '' ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password !== '' ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(path !== '' ? { db: Number(path) } : {}),
    ...(tls ? { tls: isIP(host) === 0 ? { servername: host } : {} } : {}),
    connectTimeout: CONNECT_TIMEOUT_MS,
    // BullMQ's blocking connections require it; a bounded first check is checkRedis's job.
    maxRetriesPerRequest: null,
    retryStrategy: (times: number): number => Math.min(times * 200, 5000),
  };
}

/**
 * Connects once, without retries, and pings: an unreachable host, a refused
 * port, a wrong password or a TLS mismatch is reported within a few seconds
 * with the URL (password hidden) and the reason.
 */
export async function checkRedis(url: string): Promise<void> {
  const options = parseRedisUrl(url);
  const client = new Redis({
    ...options,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // The socket's own error (ECONNREFUSED, ENOTFOUND, a TLS failure) says more than
  // connect()'s "Connection is closed"; without a listener ioredis would also log it.
  let socketError: Error | undefined;
  client.on('error', (err: Error) => {
    socketError ??= err;
  });
  const timer = new Promise<never>((_, reject) => {
    setTimeout(
      () => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)),
      CONNECT_TIMEOUT_MS + 500,
    ).unref();
  });
  try {
    await Promise.race([client.connect().then(() => client.ping()), timer]);
  } catch (err) {
    const raw = (socketError ?? (err instanceof Error ? err : new Error(String(err)))).message;
    const reason = /RESP|Protocol error/i.test(raw) ? `${raw} (is it a Redis server?)` : raw;
    throw new QueueConnectionError(`cannot use the queue at ${redactRedisUrl(url)}: ${reason}`);
  } finally {
    client.disconnect();
  }
}

/** What closeQueueClients closes: BullMQ's Queue, QueueEvents and Worker, and ioredis clients. */
interface Closable {
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  disconnect(): unknown;
}

/** How long a polite close may take before the connection is dropped. */
const CLOSE_TIMEOUT_MS = 2000;

/**
 * Closes queue clients politely, or drops their connections after
 * CLOSE_TIMEOUT_MS: while Redis is unreachable a close would wait for it
 * forever, and a coordinator stopped then must still end.
 */
export async function closeQueueClients(clients: readonly Closable[]): Promise<void> {
  await Promise.all(
    clients.map(async (client) => {
      let timer: NodeJS.Timeout | undefined;
      const polite = (client.close ?? client.quit)?.call(client) ?? Promise.resolve();
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), CLOSE_TIMEOUT_MS);
      });
      const outcome = await Promise.race([polite.catch(() => 'failed'), timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout' || outcome === 'failed') {
        try {
          client.disconnect();
        } catch {
          // gone already
        }
      }
    }),
  );
}
