import { type RedisServer, startRedisServer } from '../../bench/redis-server.ts';
import { defaultMaxJobMemory } from '../../queue/job-memory.ts';
import { queueName } from '../../queue/jobs.ts';
import { ayoayoVersion } from '../../queue/version.ts';

/** A throwaway redis-server for one test file: its own port, folder and no persistence. */
export type TestRedis = RedisServer;

/**
 * Starts Debian's redis-server for a test file (bench/redis-server.ts), in the
 * hooks of a `describeWithSystemPackage(REDIS_SERVER, ...)` suite, which is
 * skipped (or fails under CI) where it is missing; `port` to reuse a dead one's.
 */
export function startTestRedis(
  extraArgs: readonly string[] = [],
  port?: number,
): Promise<TestRedis> {
  return startRedisServer(extraArgs, port);
}

/** The queue this checkout's coordinators and workers use (the queue of its version). */
export const THIS_QUEUE = queueName(ayoayoVersion());

/** This checkout's worker, as the job runners take it: no ext: agents, the default memory cap. */
export const THIS_WORKER = {
  version: ayoayoVersion(),
  allowExt: false,
  maxJobMemory: defaultMaxJobMemory(1),
} as const;
