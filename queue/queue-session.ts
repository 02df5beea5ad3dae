import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { parseAgentSpec } from '../agents/spec.ts';
// Work on the queue shares `policy:` files: the kind must parse here.
import '../models/policy-kind.ts';
import { QUEUE_NAME } from './jobs.ts';
import { type SharedPolicy, sharePolicy, storePolicy } from './policy-transport.ts';
import { QueueStatus } from './queue-status.ts';
import { checkRedis, closeQueueClients, parseRedisUrl, redactRedisUrl } from './redis.ts';

/** How a coordinator that runs chunks on the queue (tournaments, accuracy benchmarks) reports and stops. */
export interface QueueRunnerOptions {
  /** Status lines: no worker yet, Redis unreachable and back, chunks enqueued again. */
  readonly log?: (line: string) => void;
  /** Stops following (the jobs stay queued: a coordinator started later picks them up). */
  readonly signal?: AbortSignal;
  /** With no chunk finished for this long, say what it waits for (default 60 s). */
  readonly waitingLineEveryMs?: number;
}

/** A coordinator's connections to the queue, with the policies its jobs name stored for the workers. */
export interface QueueSession {
  readonly queue: Queue;
  /** Ready, so that no event of the jobs about to be added is missed. */
  readonly events: QueueEvents;
  readonly status: QueueStatus;
  readonly log: (line: string) => void;
  /** `policy:PATH` specs and the sha256 of the policy file stored for each. */
  readonly policies: Record<string, string>;
  /** Stores the policies again (before jobs that Redis lost are enqueued again). */
  readonly storePolicies: () => Promise<void>;
}

/**
 * Connects to the queue at `url`, stores the policy file of every `policy:`
 * spec among `specs` (once per content, by sha256, where the workers fetch
 * it), runs `work`, and closes the connections however it ends.
 */
export async function withQueueSession<T>(
  url: string,
  specs: Iterable<string>,
  log: (line: string) => void,
  work: (session: QueueSession) => Promise<T>,
): Promise<T> {
  await checkRedis(url);
  const status = new QueueStatus(redactRedisUrl(url), log);
  const connection = parseRedisUrl(url);
  const store = new Redis(connection);
  status.watch(store);
  const queue = new Queue(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection });
  status.watch(queue);
  status.watch(events);
  try {
    await events.waitUntilReady();
    const shared = new Map<string, SharedPolicy>();
    for (const spec of new Set(specs)) {
      const parsed = parseAgentSpec(spec);
      if (parsed.kind === 'policy') shared.set(spec, sharePolicy(parsed.path));
    }
    const storePolicies = async (): Promise<void> => {
      for (const policy of shared.values()) await storePolicy(store, policy);
    };
    await storePolicies();
    const policies = Object.fromEntries([...shared].map(([spec, p]) => [spec, p.sha]));
    return await work({ queue, events, status, log, policies, storePolicies });
  } finally {
    await closeQueueClients([events, queue, store]);
  }
}
