import { createHash } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { parseAgentSpec } from '../agents/spec.ts';
import type { Chunk } from '../eval/chunk.ts';
import type { GameRecord } from '../eval/match.ts';
import type { ChunkRunner } from '../eval/tournament.ts';
// Tournaments on the queue share `policy:` files: the kind must parse here.
import '../models/policy-kind.ts';
import { QueueError } from './errors.ts';
import { followJobs } from './follow-jobs.ts';
import { CHUNK_JOB, chunkResultSchema, JOB_ATTEMPTS, parseJobData, QUEUE_NAME } from './jobs.ts';
import { publishPolicy } from './policy-transport.ts';
import { checkRedis, parseRedisUrl, redactRedisUrl } from './redis.ts';

/** Finished jobs (and so their results) are kept this long: a restarted coordinator finds them. */
export const KEEP_JOBS_SECONDS = 7 * 24 * 3600;

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
      return await followChunks(queue, events, chunks, tournament, onGames, options.signal);
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
  // The records as the worker made them (a parse would move the keys it names to the front).
  const original = value as GameRecord[];
  const expected = chunk.games.map((g) => g.game);
  const got = records.map((r) => r.game);
  const pairingOk = records.every(
    (r) => r.pairing === chunk.labels.pairing && r.a === chunk.labels.a && r.b === chunk.labels.b,
  );
  if (!pairingOk || JSON.stringify(got) !== JSON.stringify(expected)) {
    throw new QueueError(`${where}: the records do not match the chunk's games`);
  }
  return original;
}

/** Names a chunk in errors: its pairing and games. */
function describeChunk(chunks: readonly Chunk[], i: number): string {
  const chunk = chunks[i] as Chunk;
  const games = chunk.games.map((g) => g.game);
  return `chunk ${i} (${chunk.labels.a} vs ${chunk.labels.b}, games ${games[0]}-${games[games.length - 1]})`;
}

async function followChunks(
  queue: Queue,
  events: QueueEvents,
  chunks: readonly Chunk[],
  tournament: string,
  onGames: (count: number) => void,
  signal: AbortSignal | undefined,
): Promise<GameRecord[]> {
  // Keyed by chunk: a chunk that ran twice is still counted once.
  const results = new Map<number, GameRecord[]>();
  const progress = new Map<number, number>();
  let reported = 0;
  const report = (): void => {
    let done = 0;
    for (const [i, chunk] of chunks.entries()) {
      const size = chunk.games.length;
      done += results.has(i) ? size : Math.min(progress.get(i) ?? 0, size);
    }
    // A retried chunk starts its count again: the bar never goes back.
    if (done > reported) {
      onGames(done - reported);
      reported = done;
    }
  };
  await followJobs({
    queue,
    events,
    ids: chunks.map((_, i) => chunkJobId(tournament, i)),
    describe: (i) => describeChunk(chunks, i),
    onResult: (i, value) => {
      results.set(i, checkRecords(value, chunks[i] as Chunk, describeChunk(chunks, i)));
      report();
    },
    onProgress: (i, data) => {
      if (typeof data === 'number') {
        progress.set(i, data);
        report();
      }
    },
    signal,
  });
  return chunks.flatMap((_, i) => results.get(i) as GameRecord[]);
}
