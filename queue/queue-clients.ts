import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { queueName } from './jobs.ts';
import { QueueStatus } from './queue-status.ts';
import { checkRedis, closeQueueClients, parseRedisUrl, redactRedisUrl } from './redis.ts';
import { StaleWorkerNotes } from './worker-census.ts';

/** A coordinator's connections to the queue of its version. */
export interface QueueClients {
  readonly queue: Queue;
  /** Ready, so that no event of the jobs about to be added is missed. */
  readonly events: QueueEvents;
  /** Shared files, and the census of workers (CLIENT LIST). */
  readonly store: Redis;
  readonly status: QueueStatus;
  /** The version whose queue these serve (the jobs are stamped with it). */
  readonly version: string;
  /** Says once per worker of another version that it takes none of this coordinator's jobs. */
  readonly staleWorkers: StaleWorkerNotes;
}

/**
 * Connects a coordinator to the queue of `version` at `url` (checked first,
 * so a wrong URL fails at once with one line), every connection watched by
 * one status that says when Redis is away and back.
 */
export async function openQueueClients(
  url: string,
  version: string,
  log: (line: string) => void,
): Promise<QueueClients> {
  await checkRedis(url);
  const status = new QueueStatus(redactRedisUrl(url), log);
  const connection = parseRedisUrl(url);
  const store = new Redis(connection);
  const queue = new Queue(queueName(version), { connection });
  const events = new QueueEvents(queueName(version), { connection });
  status.watch(store);
  status.watch(queue);
  status.watch(events);
  try {
    await events.waitUntilReady();
  } catch (err) {
    await closeQueueClients([events, queue, store]);
    throw err;
  }
  return {
    queue,
    events,
    store,
    status,
    version,
    staleWorkers: new StaleWorkerNotes(version, log),
  };
}

/** Closes a coordinator's connections (at once while Redis is unreachable). */
export function closeCoordinatorClients(clients: QueueClients): Promise<void> {
  return closeQueueClients([clients.events, clients.queue, clients.store]);
}
