import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialPosition, pickRules } from '../../env/index.ts';
import { runBookJob, toHex } from '../../queue/book-job.ts';
import { queueBookRunner } from '../../queue/book-runner.ts';
import { type QueueWorker, startQueueWorker } from '../../queue/worker.ts';
import { buildBook } from '../../solve/book/cache/build-book.ts';
import { decodeBookFile } from '../../solve/book/format.ts';
import { BOOK_TEST_MS, bookEndgame, smallBook, smallSettings } from '../solve/book-fixture.ts';
import { describeWithSystemPackage, REDIS_SERVER } from '../system-packages.ts';
import { startTestRedis, type TestRedis, THIS_WORKER } from './redis-server.ts';

let redis: TestRedis;
let workers: QueueWorker[] = [];
const dir = mkdtempSync(join(tmpdir(), 'ayoayo-queue-book-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeWithSystemPackage(REDIS_SERVER, 'the opening book through the queue', () => {
  beforeAll(async () => {
    redis = await startTestRedis();
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await redis?.stop();
  });

  it(
    'built by two workers in subtrees of two leaves, is the local build to the byte',
    async () => {
      workers = [
        await startQueueWorker({ url: redis.url }),
        await startQueueWorker({ url: redis.url }),
      ];
      const path = join(dir, 'book.bin');
      let done = 0;
      const built = await buildBook(smallSettings(1), {
        path,
        runner: queueBookRunner(redis.url, { log: () => {} }),
        endgame: bookEndgame(),
        checkSamples: 1,
        chunkLeaves: 2,
        onProgress: (n) => {
          done = n;
        },
      });
      expect([built.leaves, done]).toEqual([6, 6]);
      expect(decodeBookFile(readFileSync(path)).records).toEqual(smallBook(1).records);
    },
    BOOK_TEST_MS,
  );
});

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
