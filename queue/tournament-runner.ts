import { createHash } from 'node:crypto';
import { type Job, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { parseAgentSpec } from '../agents/spec.ts';
import type { Chunk } from '../eval/chunk.ts';
import type { GameRecord } from '../eval/match.ts';
import type { ChunkRunner } from '../eval/tournament.ts';
import { CHUNK_JOB, chunkResultSchema, JOB_ATTEMPTS, parseJobData, QUEUE_NAME } from './jobs.ts';
import { publishPolicy } from './policy-transport.ts';
import { checkRedis, parseRedisUrl, redactRedisUrl } from './redis.ts';

/** Finished jobs (and so their results) are kept this long: a restarted coordinator finds them. */
export const KEEP_JOBS_SECONDS = 7 * 24 * 3600;
/** Events can be missed across a reconnect; pending jobs are also looked at this often. */
const RECONCILE_EVERY_MS = 3000;

/** The job id of a tournament's chunk: the same tournament always gets the same ids. */
export const chunkJobId = (tournament: string, index: number): string => `t-${tournament}-${index}`;

/** A tournament's identity: a hash of its chunks (specs, games, seed, settings) and policies. */
export function tournamentId(chunks: readonly Chunk[], policies: Record<string, string>): string {
  return createHash('sha256')
    .update(JSON.stringify({ chunks, policies }))
    .digest('hex')
    .slice(0, 24);
}

/**
 * A ChunkRunner for runTournament that plays the chunks on queue workers:
 * enqueues one job per chunk (ids derived from the tournament, so re-enqueueing
 * after a coordinator restart adds nothing and finished chunks are reused),
 * follows their progress, and returns each chunk's records once, however many
 * times it ran. A chunk that fails JOB_ATTEMPTS times fails the tournament with
 * its error.
 */
export function queueChunkRunner(
  url: string,
  options: {
    readonly log?: (line: string) => void;
    /** Stops following (the jobs stay queued: a coordinator started later picks them up). */
    readonly signal?: AbortSignal;
  } = {},
): ChunkRunner {
  return async (chunks, onGames) => {
    await checkRedis(url);
    const connection = parseRedisUrl(url);
    const store = new Redis(connection);
    store.on('error', () => {});
    const queue = new Queue(QUEUE_NAME, { connection });
    const events = new QueueEvents(QUEUE_NAME, { connection });
    try {
      await events.waitUntilReady();
      const policies: Record<string, string> = {};
      for (const spec of new Set(chunks.flatMap((c) => [c.labels.a, c.labels.b]))) {
        const parsed = parseAgentSpec(spec);
        if (parsed.kind === 'policy') policies[spec] = await publishPolicy(store, parsed.path);
      }
      const tournament = tournamentId(chunks, policies);
      const follow = followChunks(queue, events, chunks, tournament, onGames, options.signal);
      await queue.addBulk(
        chunks.map((chunk, index) => ({
          name: CHUNK_JOB,
          data: { tournament, index, chunk: { ...chunk }, policies },
          opts: {
            jobId: chunkJobId(tournament, index),
            attempts: JOB_ATTEMPTS,
            backoff: { type: 'fixed', delay: 1000 },
            removeOnComplete: { age: KEEP_JOBS_SECONDS },
            removeOnFail: { age: KEEP_JOBS_SECONDS },
          },
        })),
      );
      if ((await queue.getWorkersCount()) === 0) {
        options.log?.(
          `no worker is connected to ${redactRedisUrl(url)} yet: the games start when one is (ayoayo worker --queue URL)`,
        );
      }
      return await follow.start();
    } finally {
      await events.close();
      await queue.close();
      store.disconnect();
    }
  };
}

/** Checks a chunk's records against the chunk: the same pairing and exactly its games, in order. */
function checkRecords(value: unknown, chunk: Chunk, where: string): GameRecord[] {
  const records = parseJobData(chunkResultSchema, value, where);
  const expected = chunk.games.map((g) => g.game);
  const got = records.map((r) => r.game);
  const pairingOk = records.every(
    (r) => r.pairing === chunk.labels.pairing && r.a === chunk.labels.a && r.b === chunk.labels.b,
  );
  if (!pairingOk || JSON.stringify(got) !== JSON.stringify(expected)) {
    throw new Error(`${where}: the records do not match the chunk's games`);
  }
  return records as unknown as GameRecord[];
}

function followChunks(
  queue: Queue,
  events: QueueEvents,
  chunks: readonly Chunk[],
  tournament: string,
  onGames: (count: number) => void,
  signal: AbortSignal | undefined,
): { start(): Promise<GameRecord[]> } {
  const results = new Map<number, GameRecord[]>();
  const progress = new Map<number, number>();
  const indexOf = new Map(chunks.map((_, i) => [chunkJobId(tournament, i), i]));
  let reported = 0;
  const report = (): void => {
    let done = 0;
    for (const [i, chunk] of chunks.entries()) {
      done += results.has(i)
        ? chunk.games.length
        : Math.min(progress.get(i) ?? 0, chunk.games.length);
    }
    // A retried chunk starts its count again: the bar never goes back.
    if (done > reported) {
      onGames(done - reported);
      reported = done;
    }
  };
  const describe = (i: number): string => {
    const chunk = chunks[i] as Chunk;
    const games = chunk.games.map((g) => g.game);
    return `chunk ${i} (${chunk.labels.a} vs ${chunk.labels.b}, games ${games[0]}-${games[games.length - 1]})`;
  };
  return {
    start: () =>
      new Promise<GameRecord[]>((resolve, reject) => {
        let finished = false;
        const finish = (err: Error | null): void => {
          if (finished) return;
          finished = true;
          clearInterval(timer);
          signal?.removeEventListener('abort', onAbort);
          events.removeAllListeners();
          if (err !== null) reject(err);
          else resolve(chunks.flatMap((_, i) => results.get(i) as GameRecord[]));
        };
        const look = async (i: number, retryFailed: boolean): Promise<void> => {
          if (results.has(i) || finished) return;
          const id = chunkJobId(tournament, i);
          // The state first: a job read while it runs would have no result yet.
          const state = await queue.getJobState(id);
          if (state !== 'completed' && state !== 'failed') return;
          const job: Job | undefined = await queue.getJob(id);
          if (job === undefined) return;
          if (state === 'completed') {
            // Keyed by chunk: a chunk that ran twice is still counted once.
            results.set(i, checkRecords(job.returnvalue, chunks[i] as Chunk, describe(i)));
            report();
            if (results.size === chunks.length) finish(null);
          } else if (state === 'failed') {
            if (retryFailed) {
              await job.retry('failed');
            } else {
              finish(
                new Error(
                  `${describe(i)} failed after ${job.attemptsMade} attempt(s): ${job.failedReason}`,
                ),
              );
            }
          }
        };
        const lookSafely = (i: number, retryFailed = false): void => {
          look(i, retryFailed).catch((err: unknown) =>
            finish(err instanceof Error ? err : new Error(String(err))),
          );
        };
        events.on('completed', ({ jobId }) => {
          const i = indexOf.get(jobId);
          if (i !== undefined) lookSafely(i);
        });
        events.on('failed', ({ jobId }) => {
          const i = indexOf.get(jobId);
          if (i !== undefined) lookSafely(i);
        });
        events.on('progress', ({ jobId, data }) => {
          const i = indexOf.get(jobId);
          if (i !== undefined && typeof data === 'number') {
            progress.set(i, data);
            report();
          }
        });
        const timer = setInterval(() => {
          for (let i = 0; i < chunks.length; i++) lookSafely(i);
        }, RECONCILE_EVERY_MS);
        const onAbort = (): void =>
          finish(new Error('the coordinator was stopped; its jobs stay queued'));
        if (signal?.aborted === true) onAbort();
        signal?.addEventListener('abort', onAbort);
        // Chunks finished before this coordinator started (a restart) are taken as they are;
        // failed ones get another round of attempts.
        for (let i = 0; i < chunks.length; i++) lookSafely(i, true);
      }),
  };
}
