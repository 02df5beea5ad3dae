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

/**
 * Short locks, so that a dead worker's job is taken over within about a
 * second. The stalled checks are as short as the lock: the worker that checks
 * holds off every other worker's check for its own interval, so one worker at
 * the default 30 s would leave a dead worker's job waiting that long.
 */
export const FAST_LOCKS = { lockDurationMs: 1000, stalledIntervalMs: 500 } as const;

/** FAST_LOCKS as `ayoayo worker`'s flags. */
export const FAST_LOCK_FLAGS = [
  '--lock-duration',
  String(FAST_LOCKS.lockDurationMs),
  '--stalled-interval',
  String(FAST_LOCKS.stalledIntervalMs),
] as const;
