import { type RedisServer, startRedisServer } from '../../bench/redis-server.ts';
import { defaultMaxJobMemory } from '../../queue/job-memory.ts';
import { queueName } from '../../queue/jobs.ts';
import { ayoayoVersion } from '../../queue/version.ts';
import { REDIS_SERVER, requireSystemPackage } from '../system-packages.ts';

/** A throwaway redis-server for one test file: its own port, folder and no persistence. */
export type TestRedis = RedisServer;

/**
 * Starts Debian's redis-server for a test file (bench/redis-server.ts), after
 * checking that it is installed (skip or fail as test/system-packages.ts says);
 * `port` to reuse a dead one's.
 */
export async function startTestRedis(
  extraArgs: readonly string[] = [],
  port?: number,
): Promise<TestRedis> {
  requireSystemPackage(REDIS_SERVER);
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
