import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialPosition, pickRules } from '../../env/index.ts';
import { fromHex, runBookJob, toHex } from '../../queue/book-job.ts';
import { queueBookRunner } from '../../queue/book-runner.ts';
import type { BookJob } from '../../queue/jobs.ts';
import { parseRedisUrl } from '../../queue/redis.ts';
import { type QueueWorker, startQueueWorker } from '../../queue/worker.ts';
import { buildBook, resumeFileOf } from '../../solve/book/cache/build-book.ts';
import { decodeBookFile } from '../../solve/book/format.ts';
import {
  BOOK_TEST_MS,
  bookEndgame,
  forgeLeaves,
  recordsOf,
  seedOneSample,
  smallBook,
  smallSettings,
} from '../solve/book-fixture.ts';
import { describeWithSystemPackage, REDIS_SERVER } from '../system-packages.ts';
import { startTestRedis, type TestRedis, THIS_QUEUE, THIS_WORKER } from './redis-server.ts';

let redis: TestRedis;
let workers: QueueWorker[] = [];
const dir = mkdtempSync(join(tmpdir(), 'ayoayo-queue-book-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeWithSystemPackage(
  REDIS_SERVER,
  'the opening book through the queue',
  () => {
    beforeAll(async () => {
      redis = await startTestRedis();
    });

    afterAll(async () => {
      await Promise.all(workers.map((w) => w.close()));
      await redis?.stop();
    });

    it("built by two workers in subtrees of two leaves, is the local build to the byte; built again, takes none of the first build's answers", async () => {
      workers = [
        await startQueueWorker({ url: redis.url }),
        await startQueueWorker({ url: redis.url }),
      ];
      const path = join(dir, 'book.bin');
      let done = 0;
      const build = () =>
        buildBook(smallSettings(1), {
          path,
          runner: queueBookRunner(redis.url, { log: () => {} }),
          endgame: bookEndgame(),
          checkSamples: 1,
          chunkLeaves: 2,
          onProgress: (n) => {
            done = n;
          },
        });
      const built = await build();
      expect([built.leaves, done]).toEqual([6, 6]);
      // Every leaf came from a worker: the sample is drawn among them.
      expect([built.foreign, built.check.resolved]).toEqual([6, 1]);
      expect(decodeBookFile(readFileSync(path)).records).toEqual(smallBook(1).records);
      // The same chunks again: a fresh build's nonce names fresh jobs, solved afresh.
      const queue = new Queue(THIS_QUEUE, { connection: parseRedisUrl(redis.url) });
      try {
        expect((await queue.getJobCounts('completed')).completed).toBe(3);
        await build();
        expect((await queue.getJobCounts('completed')).completed).toBe(6);
        await queue.obliterate({ force: true });
      } finally {
        await queue.close();
      }
      await Promise.all(workers.map((w) => w.close()));
      workers = [];
    });

    it('refuses answers a worker forged, drops them, and builds the book right once an honest worker answers', async () => {
      const settings = smallSettings(2);
      const book = smallBook(2);
      // It forges every leaf but those the check used to re-solve (always seed 1).
      const spare = seedOneSample(book);
      // Workers that answer from the true book rather than solving: what they send is all
      // that matters here (the workers above showed the queue's solving).
      const answering = (answer: (records: Uint8Array) => Uint8Array) =>
        new Worker<BookJob>(
          THIS_QUEUE,
          async (job) => toHex(answer(recordsOf(book, fromHex(job.data.chunk.keys)))),
          { connection: parseRedisUrl(redis.url) },
        );
      const forger = answering((records) => forgeLeaves(records, spare).records);
      const path = join(dir, 'book-2.bin');
      const notes: string[] = [];
      const options = {
        path,
        runner: queueBookRunner(redis.url, { log: () => {} }),
        endgame: bookEndgame(),
        chunkLeaves: 4,
        onNote: (n: string) => notes.push(n),
      };
      const queue = new Queue(THIS_QUEUE, { connection: parseRedisUrl(redis.url) });
      let honest: Worker<BookJob> | undefined;
      try {
        await expect(buildBook(settings, options)).rejects.toThrow(
          /^the book fails its (sample|endgame) check: position .*\(sample seed \d+\)$/,
        );
        await forger.close();
        expect(notes).toEqual([
          `the book was not written: dropped ${resumeFileOf(path)} (its 28 leaves) and the results of 7 queue jobs; the same command solves them again`,
        ]);
        expect(existsSync(path) || existsSync(resumeFileOf(path))).toBe(false);
        expect(await queue.getJobCounts('completed', 'waiting', 'active')).toEqual({
          completed: 0,
          waiting: 0,
          active: 0,
        });
        // After the drop, an honest worker's answers are taken.
        honest = answering((records) => records);
        notes.length = 0;
        const built = await buildBook(settings, options);
        expect(notes).toEqual([]);
        expect([built.foreign, built.check.resolved]).toEqual([28, 8]);
        expect(decodeBookFile(readFileSync(path)).records).toEqual(book.records);
      } finally {
        await forger.close();
        await honest?.close();
        await queue.close();
      }
    });
  },
  { timeout: BOOK_TEST_MS },
);

describe('an opening book job', () => {
  it('is refused when it holds a position that is no leaf of its book', async () => {
    const settings = smallSettings(1);
    const job = {
      data: {
        version: THIS_WORKER.version,
        book: '0123456789abcdef',
        index: 0,
        chunk: {
          settings: { ...settings, rules: pickRules(settings.rules) },
          // The start: in the book, but no leaf (solving it would cost without bound).
          keys: toHex(initialPosition().stateView),
        },
      },
      updateProgress: async () => {},
    };
    await expect(runBookJob(job, THIS_WORKER)).rejects.toThrow(
      'invalid opening book chunk job: leaf 0 (position 4,4,4,4,4,4/4,4,4,4,4,4/0-0/0) is not a leaf of the book of 1 plies',
    );
    const deep = {
      ...job,
      data: {
        ...job.data,
        chunk: { ...job.data.chunk, settings: { ...job.data.chunk.settings, plies: 30 } },
      },
    };
    await expect(runBookJob(deep, THIS_WORKER)).rejects.toThrow(/plies/);
  });
});
