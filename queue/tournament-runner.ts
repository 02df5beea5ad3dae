import { createHash } from 'node:crypto';
import type { Chunk } from '../eval/chunk.ts';
import type { GameRecord } from '../eval/match.ts';
import type { ChunkRunner } from '../eval/tournament.ts';
import { QueueError } from './errors.ts';
import { followJobs, JobResults, type QueuedJob } from './follow-jobs.ts';
import { CHUNK_JOB, chunkResultSchema, parseJobData } from './jobs.ts';
import type { QueueClients } from './queue-clients.ts';
import { type QueueRunnerOptions, withQueueSession } from './queue-session.ts';

/** The job id of a tournament's chunk: the same tournament always gets the same ids. */
export const chunkJobId = (tournament: string, index: number): string => `t-${tournament}-${index}`;

/** A tournament's identity: a hash of its chunks (specs, games, seed, settings) and files. */
export function tournamentId(chunks: readonly Chunk[], files: Record<string, string>): string {
  return createHash('sha256').update(JSON.stringify({ chunks, files })).digest('hex').slice(0, 24);
}

/**
 * A ChunkRunner for runTournament that plays the chunks on queue workers:
 * enqueues one job per chunk (ids derived from the tournament, so re-enqueueing
 * after a coordinator restart adds nothing and finished chunks are reused),
 * follows their progress, and returns each chunk's records once, however many
 * times it ran. Chunks (and shared policies) that Redis loses are enqueued
 * again. A chunk that fails JOB_ATTEMPTS times fails the tournament with its
 * error.
 */
export function queueChunkRunner(url: string, options: QueueRunnerOptions = {}): ChunkRunner {
  return (chunks, onGames) =>
    withQueueSession(
      url,
      chunks.flatMap((c) => [c.labels.a, c.labels.b]),
      options,
      (session) => {
        const tournament = tournamentId(chunks, session.files);
        const version = session.clients.version;
        const jobs = chunks.map((chunk, index) => ({
          name: CHUNK_JOB,
          data: { version, tournament, index, chunk: { ...chunk }, files: session.files },
        }));
        return followChunks({
          clients: session.clients,
          log: session.log,
          storeFiles: session.storeFiles,
          chunks,
          jobs,
          tournament,
          onGames,
          signal: options.signal,
          waitingLineEveryMs: options.waitingLineEveryMs,
        });
      },
    );
}

/** Checks a chunk's records against the chunk: the same pairing and exactly its games, in order. */
function checkRecords(value: unknown, chunk: Chunk, where: string): GameRecord[] {
  const records = parseJobData(chunkResultSchema, value, where);
  // The records as the worker made them (a parse would move the keys it names to the front).
  const original = value as GameRecord[];
  const expected = chunk.games.map((g) => g.game);
  const got = records.map((r) => r.game);
  const pairingOk = records.every(
    (r) =>
      r.pairing === chunk.labels.pairing &&
      r.a === chunk.labels.a &&
      r.b === chunk.labels.b &&
      r.actions.length <= chunk.settings.maxPlies,
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

async function followChunks(o: {
  readonly clients: QueueClients;
  readonly log: (line: string) => void;
  readonly chunks: readonly Chunk[];
  readonly jobs: readonly QueuedJob[];
  readonly tournament: string;
  readonly storeFiles: () => Promise<void>;
  readonly onGames: (count: number) => void;
  readonly signal: AbortSignal | undefined;
  readonly waitingLineEveryMs: number | undefined;
}): Promise<GameRecord[]> {
  const { chunks, onGames } = o;
  // Keyed by chunk: a chunk that ran twice is still counted once.
  const results = new JobResults<GameRecord[]>(
    chunks.map((c) => c.games.length),
    onGames,
  );
  const total = chunks.reduce((n, c) => n + c.games.length, 0);
  await followJobs({
    clients: o.clients,
    ids: chunks.map((_, i) => chunkJobId(o.tournament, i)),
    jobs: o.jobs,
    beforeRequeue: o.storeFiles,
    noun: 'chunk',
    describe: (i) => describeChunk(chunks, i),
    done: (finished) =>
      `${finished} of ${chunks.length} chunks (${results.taken().reduce((n, r) => n + r.length, 0)} of ${total} games)`,
    onResult: (i, value) =>
      results.take(i, checkRecords(value, chunks[i] as Chunk, describeChunk(chunks, i))),
    onProgress: (i, data) => results.progress(i, data),
    log: o.log,
    signal: o.signal,
    waitingLineEveryMs: o.waitingLineEveryMs,
  });
  return results.all().flat();
}
