import type { Redis } from 'ioredis';
import { QUEUE_NAME_PREFIX } from './jobs.ts';

/** A worker connected to the queue's Redis: which ayoayo it runs, and its name (host/pid). */
export interface ConnectedWorker {
  readonly version: string;
  readonly name: string;
}

/**
 * Every ayoayo worker connected to this Redis, whatever its version: BullMQ
 * names a worker's connections `bull:<base64 of the queue's name>:w:<worker
 * name>`, and a queue's name holds its version (queueName). Redis without
 * CLIENT LIST (some managed services) answers with none.
 */
export async function connectedWorkers(redis: Redis): Promise<ConnectedWorker[]> {
  let list: string;
  try {
    list = String(await redis.client('LIST'));
  } catch {
    return [];
  }
  const workers = new Map<string, ConnectedWorker>();
  for (const line of list.split('\n')) {
    const match = / name=bull:([A-Za-z0-9+/=]+):w:(\S+)/.exec(line);
    if (match === null) continue;
    const queue = Buffer.from(match[1] as string, 'base64').toString('utf8');
    if (!queue.startsWith(QUEUE_NAME_PREFIX)) continue;
    const worker = { version: queue.slice(QUEUE_NAME_PREFIX.length), name: match[2] as string };
    workers.set(`${worker.version} ${worker.name}`, worker);
  }
  return [...workers.values()];
}

/**
 * Says once for each worker of another version what it means for this
 * coordinator's jobs, which it never sees: they wait for a worker of
 * `version`.
 */
export class StaleWorkerNotes {
  readonly #told = new Set<string>();

  constructor(
    private readonly version: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Looks at the connected workers; a line for each of another version not told of before. */
  async look(redis: Redis): Promise<void> {
    for (const worker of await connectedWorkers(redis)) {
      const key = `${worker.version} ${worker.name}`;
      if (worker.version === this.version || this.#told.has(key)) continue;
      this.#told.add(key);
      this.log(
        `worker ${worker.name} runs ayoayo ${worker.version}, not this coordinator's ${this.version}: it takes none of these jobs, which wait for a worker of ${this.version} (run the same ayoayo on the coordinator and every worker)`,
      );
    }
  }
}
