import { registerNetworkKinds } from '../agents/network/kinds.ts';
import { specFiles } from '../agents/spec.ts';
import { type SharedPolicy, sharePolicy, storePolicy } from './policy-transport.ts';
import { closeCoordinatorClients, openQueueClients, type QueueClients } from './queue-clients.ts';
import { ayoayoVersion } from './version.ts';

/** How a coordinator that runs chunks on the queue (tournaments, accuracy benchmarks) reports and stops. */
export interface QueueRunnerOptions {
  /** Status lines: no worker yet, Redis unreachable and back, chunks enqueued again. */
  readonly log?: (line: string) => void;
  /** Stops following (the jobs stay queued: a coordinator started later picks them up). */
  readonly signal?: AbortSignal;
  /** With no chunk finished for this long, say what it waits for (default 60 s). */
  readonly waitingLineEveryMs?: number;
  /** The version the jobs are stamped with and whose queue they go to (default this ayoayo's; tests play another). */
  readonly version?: string;
}

/** A coordinator's connections to the queue, with the files its jobs' agents read stored for the workers. */
export interface QueueSession {
  readonly clients: QueueClients;
  readonly log: (line: string) => void;
  /** The path of every file the specs read, and the sha256 of the policy file stored for it. */
  readonly files: Record<string, string>;
  /** Stores the files again (before jobs that Redis lost are enqueued again). */
  readonly storeFiles: () => Promise<void>;
}

/**
 * The policy file behind every file an agent spec among `specs` reads
 * (agents/spec.ts's specFiles: `policy:PATH`, `az:PATH,...`,
 * `minimax:...,eval=PATH`), read here, on the coordinator, by the path the
 * spec names: the workers get these and read no file of their own.
 */
export function shareSpecFiles(specs: Iterable<string>): Map<string, SharedPolicy> {
  // Work on the queue shares the files of the kinds that load networks: they must parse here.
  registerNetworkKinds();
  const shared = new Map<string, SharedPolicy>();
  for (const spec of new Set(specs)) {
    for (const path of specFiles(spec)) {
      if (!shared.has(path)) shared.set(path, sharePolicy(path));
    }
  }
  return shared;
}

/**
 * Connects to the queue of this ayoayo's version at `url`, stores the policy
 * file behind every file the `specs` read (once per content, by sha256, where
 * the workers fetch it), runs `work`, and closes the connections however it
 * ends.
 */
export async function withQueueSession<T>(
  url: string,
  specs: Iterable<string>,
  options: QueueRunnerOptions,
  work: (session: QueueSession) => Promise<T>,
): Promise<T> {
  const log = options.log ?? (() => {});
  // Read before connecting: a missing file fails at once, with nothing enqueued.
  const shared = shareSpecFiles(specs);
  const clients = await openQueueClients(url, options.version ?? ayoayoVersion(), log);
  try {
    const storeFiles = async (): Promise<void> => {
      for (const policy of shared.values()) await storePolicy(clients.store, policy);
    };
    await storeFiles();
    const files = Object.fromEntries([...shared].map(([path, p]) => [path, p.sha]));
    return await work({ clients, log, files, storeFiles });
  } finally {
    await closeCoordinatorClients(clients);
  }
}
