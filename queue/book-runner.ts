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

/**
 * A BookChunkRunner for buildBook that solves the chunks on queue workers:
 * one job per chunk, ids derived from the chunks (a restarted coordinator
 * adds nothing and takes the finished chunks as they are), each chunk's
 * records taken once and checked to be the chunk's leaves (the whole book
 * is checked again by the build). Stopped through `signal`, it returns and
 * the build saves what it has.
 */
export function queueBookRunner(url: string, options: QueueRunnerOptions = {}): BookChunkRunner {
  return async (chunks, onChunk, onLeaf, signal) => {
    if (chunks.length === 0) return;
    const data = chunks.map(chunkData);
    const book = createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 24);
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
          ids: data.map((_, i) => `b-${book}-${i}`),
          jobs: data.map((chunk, index) => ({
            name: BOOK_JOB,
            data: { version, book, index, chunk },
          })),
          noun: 'book chunk',
          describe: (i) => `book chunk ${i} (${(chunks[i]?.keys.length ?? 0) / KEY_BYTES} leaves)`,
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
  };
}
