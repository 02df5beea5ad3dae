import { availableParallelism } from 'node:os';
import { type AgentSpec, checkAgentSpec, parseAgentList } from '../../agents/spec.ts';
import { capWorkers } from '../../threads/pool.ts';
import { runAllOnAgentThreads } from '../agent-threads.ts';
import type { AccuracySet } from './accuracy-set.ts';
import {
  ACCURACY_JOB,
  type AccuracyAnswer,
  type AccuracyChunk,
  runAccuracyChunk,
} from './chunk.ts';
import { type AgentAccuracy, scoreAnswers } from './score.ts';

/** Runs accuracy chunks somewhere else (a job queue: see queue/), each chunk's answers in order. */
export type AccuracyChunkRunner = (
  chunks: readonly AccuracyChunk[],
  onAnswers: (count: number) => void,
) => Promise<AccuracyAnswer[][]>;

export interface AccuracyOptions {
  /** Agent specs (see agents/spec.ts). */
  readonly specs: readonly string[];
  readonly set: AccuracySet;
  /** Seed of the generator each agent gets at each position (default 1). */
  readonly seed?: number;
  /** Worker threads (default and most: one per core); 0 asks every agent in this thread. */
  readonly workers?: number;
  /** Per-move limit of external engines in ms. */
  readonly moveTimeoutMs?: number;
  /** Called as positions are answered. */
  readonly onProgress?: (progress: { done: number; total: number }) => void;
  /** Runs the chunks somewhere else (a job queue) instead of here or on the pool. */
  readonly runChunks?: AccuracyChunkRunner;
}

export interface AccuracyReport {
  /** The set's file and how it was made. */
  readonly set: {
    readonly path: string;
    readonly positions: number;
    readonly seed: number;
    readonly solver: string;
    readonly sha256: string;
  };
  /** One result per agent, in the order given. */
  readonly agents: readonly AgentAccuracy[];
  readonly settings: { readonly seed: number; readonly workers: number };
  readonly elapsedSeconds: number;
}

/**
 * The accuracy benchmark: every agent moves in every position of the set
 * (each a fresh decision under its own budget), and each move is scored
 * against the exact values (score.ts). Chunks of positions run on eval's
 * worker threads, in this thread with `workers: 0`, or through `runChunks`;
 * the same seed gives the same moves for agents that do not depend on time.
 */
export async function runAccuracy(options: AccuracyOptions): Promise<AccuracyReport> {
  const started = performance.now();
  const { set, specs } = options;
  const seed = options.seed ?? 1;
  if (specs.length === 0) throw new RangeError('the accuracy benchmark needs at least one agent');
  const parsed = parseAgentList(specs);
  const requested = options.workers ?? availableParallelism();
  if (!Number.isInteger(requested) || requested < 0) {
    throw new RangeError(`workers must be a non-negative integer, got ${requested}`);
  }
  const workers = options.runChunks !== undefined ? requested : capWorkers(requested);
  // Worker threads lose an error's class: bad specs are found here first (see checkAgentSpec).
  if (options.runChunks === undefined) {
    for (const spec of parsed) await checkAgentSpec(spec, { rules: set.rules });
  }
  const chunks = splitIntoChunks(options, seed, Math.max(1, workers));
  const total = specs.length * set.positions.length;
  let done = 0;
  const onAnswers = (count: number): void => {
    done += count;
    options.onProgress?.({ done, total });
  };
  // Threads are sent each chunk's spec parsed; a queue, the text (a job is untrusted input).
  const byText = new Map(specs.map((spec, i) => [spec, parsed[i] as AgentSpec]));
  const specOf = (chunk: AccuracyChunk): AgentSpec => byText.get(chunk.spec) as AgentSpec;
  const answers =
    options.runChunks !== undefined
      ? await options.runChunks(chunks, onAnswers)
      : workers === 0
        ? await runHere(chunks, specOf, onAnswers)
        : await runAllOnAgentThreads(
            ACCURACY_JOB,
            chunks.map((chunk) => ({ chunk, spec: specOf(chunk) })),
            workers,
            onAnswers,
          );
  const agents = specs.map((spec) =>
    scoreAnswers(
      spec,
      set.positions,
      chunks.flatMap((chunk, i) => (chunk.spec === spec ? (answers[i] as AccuracyAnswer[]) : [])),
    ),
  );
  const { header } = set;
  return {
    set: {
      path: set.path,
      positions: set.positions.length,
      seed: header.seed,
      solver: header.solver,
      sha256: header.sha256,
    },
    agents,
    settings: { seed, workers },
    elapsedSeconds: (performance.now() - started) / 1000,
  };
}

/** About four chunks per worker and agent, so that every worker stays busy to the end. */
function splitIntoChunks(options: AccuracyOptions, seed: number, workers: number): AccuracyChunk[] {
  const positions = options.set.positions.map((p, index) => ({ index, position: p.position }));
  const size = Math.max(1, Math.min(250, Math.ceil(positions.length / (workers * 4))));
  const chunks: AccuracyChunk[] = [];
  for (const spec of options.specs) {
    for (let from = 0; from < positions.length; from += size) {
      chunks.push({
        spec,
        rules: options.set.rules,
        seed,
        positions: positions.slice(from, from + size),
        ...(options.moveTimeoutMs !== undefined ? { moveTimeoutMs: options.moveTimeoutMs } : {}),
      });
    }
  }
  return chunks;
}

async function runHere(
  chunks: readonly AccuracyChunk[],
  specOf: (chunk: AccuracyChunk) => AgentSpec,
  onAnswers: (count: number) => void,
): Promise<AccuracyAnswer[][]> {
  const out: AccuracyAnswer[][] = [];
  for (const chunk of chunks) {
    out.push(await runAccuracyChunk(chunk, () => onAnswers(1), undefined, specOf(chunk)));
  }
  return out;
}
