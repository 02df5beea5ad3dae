import type { MessagePort } from 'node:worker_threads';
import type { AgentKindSource, JobFiles } from '../agents/spec.ts';
import type { BookChunk } from '../solve/book/cache/build-book.ts';
import type { AccuracyAnswer, AccuracyChunk } from './accuracy/chunk.ts';
import type { FixtureGameResult, FixtureGameTask } from './accuracy/fixture-game.ts';
import type { Chunk } from './chunk.ts';
import type { GameRecord } from './match.ts';
import type { GameErrors, ReviewJob } from './review-job.ts';

/** What eval's worker threads do, by kind: what each is given and what it returns. */
export interface PoolJobs {
  /** A slice of a tournament's games (chunk.ts). */
  readonly games: { readonly input: Chunk; readonly output: GameRecord[] };
  /** An agent's moves in a slice of an accuracy set's positions (accuracy/chunk.ts). */
  readonly accuracy: { readonly input: AccuracyChunk; readonly output: AccuracyAnswer[] };
  /** A game of the accuracy set's generator, played and solved (accuracy/fixture-game.ts). */
  readonly 'fixture-game': {
    readonly input: FixtureGameTask;
    readonly output: FixtureGameResult;
  };
  /** Leaves of an opening book, solved (solve/book/cache/local-runner.ts): their records. */
  readonly 'book-leaves': { readonly input: BookChunk; readonly output: Uint8Array };
  /** A few tournament games reviewed against exact values (review-games.ts). */
  readonly review: { readonly input: ReviewJob; readonly output: GameErrors[] };
}
export type PoolJobKind = keyof PoolJobs;

/** One job for a worker thread. */
export type PoolJob = {
  [K in PoolJobKind]: { readonly kind: K; readonly input: PoolJobs[K]['input'] };
}[PoolJobKind];

/** A job sent to a worker thread, with the port its progress is reported on. */
export interface WorkerTask {
  readonly job: PoolJob;
  readonly progress: MessagePort;
  /** The registrations of agent kinds made in the main thread (agentKindSources()), made again before the job runs. */
  readonly agentKinds: readonly AgentKindSource[];
  /** A queue job's files: the only files the job's agents may read (see JobFiles). */
  readonly files?: JobFiles;
}

/** Posted on the progress port after a job's last count. */
export const CHUNK_DONE = 'chunk-done';

/**
 * What the progress port carries: counts of things finished since the last
 * message (games, positions; at most one message per PROGRESS_INTERVAL_MS, so
 * that fast ones do not pay for a message each), then CHUNK_DONE. The results
 * themselves come back as the task's result.
 */
export type ProgressMessage = number | typeof CHUNK_DONE;

export const PROGRESS_INTERVAL_MS = 100;
