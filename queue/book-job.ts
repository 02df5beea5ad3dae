import type { Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import { formatPosition, positionFromState, resolveRules, rulesKey } from '../env/index.ts';
import { solveBookChunkHere } from '../solve/book/cache/thread-runner.ts';
import { type BookSettings, KEY_BYTES } from '../solve/book/format.ts';
import { bookLevels, keySet, stateKey } from '../solve/book/plan.ts';
import { acceptJob } from './accept-job.ts';
import { type JobWorker, progressReporter } from './chunk-job.ts';
import { type BookJob, bookJobSchema } from './jobs.ts';

/** Bytes as hex, and back. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
}

export function fromHex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'hex'));
}

/** The leaves of the last book planned here (a worker gets chunk after chunk of one book). */
let planned: { key: string; leaves: Set<string> } | null = null;

function leavesOf(settings: BookSettings): Set<string> {
  const key = `${rulesKey(settings.rules)}/${settings.plies}`;
  if (planned?.key !== key) {
    const leaves = keySet(bookLevels(settings.rules, settings.plies)[settings.plies] as Uint8Array);
    planned = { key, leaves };
  }
  return planned.leaves;
}

/**
 * Solves one chunk of an opening book's leaves: only positions that are
 * leaves of the book its settings name (anything else is refused: an
 * arbitrary position could cost without bound), one leaf at a time with a
 * turn of the event loop between them, so that the job's lock is renewed.
 * Returns the records in hex, in the chunk's order.
 */
export async function runBookJob(
  job: Pick<Job, 'data' | 'updateProgress'>,
  worker: JobWorker,
): Promise<string> {
  const data: BookJob = acceptJob(
    bookJobSchema,
    job.data,
    'opening book chunk job',
    worker,
    () => [],
  );
  const settings: BookSettings = {
    ...data.chunk.settings,
    rules: resolveRules(data.chunk.settings.rules),
  };
  const keys = fromHex(data.chunk.keys);
  const leaves = leavesOf(settings);
  for (let at = 0; at < keys.length; at += KEY_BYTES) {
    const key = keys.subarray(at, at + KEY_BYTES);
    if (key[KEY_BYTES - 1] !== 0 || !leaves.has(stateKey(key))) {
      let where = 'not a position';
      try {
        where = `position ${formatPosition(positionFromState(key))}`;
      } catch {
        // Named as not a position.
      }
      throw new UnrecoverableError(
        `invalid opening book chunk job: leaf ${at / KEY_BYTES} (${where}) is not a leaf of the book of ${settings.plies} plies`,
      );
    }
  }
  const onLeaf = progressReporter(job);
  const out: Uint8Array[] = [];
  for (let at = 0; at < keys.length; at += KEY_BYTES) {
    out.push(solveBookChunkHere({ settings, keys: keys.subarray(at, at + KEY_BYTES) }));
    onLeaf();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return out.map(toHex).join('');
}
