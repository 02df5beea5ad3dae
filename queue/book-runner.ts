import { createHash } from 'node:crypto';
import { pickRules } from '../env/index.ts';
import type { BookChunk, BookChunkRunner } from '../solve/book/cache/build-book.ts';
import { KEY_BYTES } from '../solve/book/format.ts';
import { fromHex, toHex } from './book-job.ts';
import { QueueStoppedError } from './errors.ts';
import { followJobs } from './follow-jobs.ts';
import { BOOK_JOB, bookResultSchema, parseJobData } from './jobs.ts';
import { type QueueRunnerOptions, withQueueSession } from './queue-session.ts';

/** A chunk as a job carries it. */
function chunkData(chunk: BookChunk) {
  return {
    settings: { ...chunk.settings, rules: pickRules(chunk.settings.rules) },
    keys: toHex(chunk.keys),
  };
}

/** The job ids of a build: its nonce and its chunks' contents (a restarted coordinator adds nothing). */
function jobIds(
  nonce: string,
  data: readonly ReturnType<typeof chunkData>[],
): {
  book: string;
  ids: string[];
} {
  const book = createHash('sha256')
    .update(nonce)
    .update(JSON.stringify(data))
    .digest('hex')
    .slice(0, 24);
  return { book, ids: data.map((_, i) => `b-${book}-${i}`) };
}

/**
 * A BookChunkRunner for buildBook that solves the chunks on queue workers:
 * one job per chunk, ids derived from the build's nonce and the chunks (a
 * restarted coordinator of the same build adds nothing and takes the
 * finished chunks as they are; a later build, with another nonce, takes
 * none of them), each chunk's records taken once and checked to be the
 * chunk's leaves. Its answers are foreign: the build re-solves a sample of
 * them before it writes the book, and when that check fails, `drop` removes
 * the run's jobs, results and all. Stopped through the run's signal, it
 * returns and the build saves what it has.
 */
export function queueBookRunner(url: string, options: QueueRunnerOptions = {}): BookChunkRunner {
  const sent = new Map<string, string[]>();
  return {
    foreign: true,
    solve: async (chunks, onChunk, onLeaf, { nonce, signal }) => {
      if (chunks.length === 0) return;
      const data = chunks.map(chunkData);
      const { book, ids } = jobIds(nonce, data);
      sent.set(nonce, [...(sent.get(nonce) ?? []), ...ids]);
      const counted = new Array<number>(chunks.length).fill(0);
      const count = (i: number, leaves: number): void => {
        for (; (counted[i] as number) < leaves; counted[i] = (counted[i] as number) + 1) onLeaf();
      };
      try {
        await withQueueSession(url, [], { ...options, signal }, async (session) => {
          const version = session.clients.version;
          await followJobs({
            clients: session.clients,
            log: session.log,
            ids,
            jobs: data.map((chunk, index) => ({
              name: BOOK_JOB,
              data: { version, book, index, chunk },
            })),
            noun: 'book chunk',
            describe: (i) =>
              `book chunk ${i} (${(chunks[i]?.keys.length ?? 0) / KEY_BYTES} leaves)`,
            onResult: (i, value) => {
              const where = `book chunk ${i}`;
              const records = fromHex(parseJobData(bookResultSchema, value, where));
              onChunk(i, records);
              count(i, (chunks[i] as BookChunk).keys.length / KEY_BYTES);
            },
            onProgress: (i, progress) => {
              if (typeof progress === 'number' && Number.isInteger(progress) && progress >= 0) {
                count(i, Math.min(progress, (chunks[i] as BookChunk).keys.length / KEY_BYTES));
              }
            },
            signal,
            waitingLineEveryMs: options.waitingLineEveryMs,
          });
        });
      } catch (err) {
        if (err instanceof QueueStoppedError && signal?.aborted === true) return;
        throw err;
      }
    },
    drop: async ({ nonce }) => {
      const ids = sent.get(nonce) ?? [];
      sent.delete(nonce);
      if (ids.length === 0) return null;
      const { signal: _, ...rest } = options;
      const removed = await withQueueSession(url, [], rest, async ({ clients }) => {
        let n = 0;
        for (const id of ids) n += await clients.queue.remove(id);
        return n;
      });
      return `the results of ${removed} queue job${removed === 1 ? '' : 's'}`;
    },
  };
}
