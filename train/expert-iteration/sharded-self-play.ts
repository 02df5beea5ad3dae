import type * as tfType from '@tensorflow/tfjs';
import { Random } from '../../env/random.ts';
import type { BackendChoice } from '../../models/backend-choice.ts';
import {
  type InferenceEngine,
  type NetworkInference,
  withWeights,
} from '../../models/inference/inference-engine.ts';
import type { MlpWeights } from '../../models/mlp-runner.ts';
import { extractMlpWeights, type NetworkConfig } from '../../models/policy-value-model.ts';
import type { TrainConfig } from '../config/schema.ts';
import type { TrainThreads } from '../train-threads.ts';
import { addPositions, type PositionSink } from './position-log.ts';
import {
  emptySearchStats,
  type GamesInProgress,
  type SearchSelfPlayStats,
} from './search-self-play.ts';
import {
  inferenceName,
  type ShardIteration,
  ShardPlayer,
  type ShardResult,
  type ShardSetup,
} from './shard.ts';

/**
 * Plays one iteration of every shard with the learner's current weights, in
 * this thread, on worker threads or on other machines (the queue's runner,
 * queue/shard-runner.ts); results come back in the shards' order.
 */
export interface ShardRunner {
  /** One iteration of every shard; `iteration` is the run's (it names the iteration in messages). */
  play(
    iterations: readonly ShardIteration[],
    weights: MlpWeights,
    iteration: number,
  ): Promise<ShardResult[]>;
  /**
   * Every shard starts fresh games (a checkpoint boundary): the iterations
   * played before are not asked for again (a runner may forget their results).
   */
  freshGames?(): void;
  dispose(): Promise<void>;
}

/** What a shard runner is made for: the run's config and its shards' setups. */
export interface ShardRunnerContext {
  readonly config: TrainConfig;
  readonly setups: readonly ShardSetup[];
}

/** Makes the runner a run's shards are played by (the trainer takes one through TrainOptions). */
export type ShardRunnerFactory = (context: ShardRunnerContext) => ShardRunner;

/** Every shard in this thread, one after the other, with one forward pass that takes the learner's weights. */
class InThisThread implements ShardRunner {
  #inference: NetworkInference | null = null;
  #players: ShardPlayer[] = [];

  constructor(
    private readonly engine: InferenceEngine,
    private readonly tfjsBackend: BackendChoice,
    private readonly setups: readonly ShardSetup[],
  ) {}

  async play(iterations: readonly ShardIteration[], weights: MlpWeights): Promise<ShardResult[]> {
    const first = this.#inference === null;
    const inference = await withWeights(this.engine, this.#inference, weights, { batched: true });
    this.#inference = inference;
    if (first) {
      const backend = await inferenceName(inference, this.tfjsBackend);
      this.#players = this.setups.map(
        (setup) => new ShardPlayer(inference.forward, setup, backend),
      );
    }
    return iterations.map((it, i) => (this.#players[i] as ShardPlayer).play(it, true));
  }

  dispose(): Promise<void> {
    this.#inference?.dispose();
    this.#inference = null;
    return Promise.resolve();
  }
}

/** The shards on the run's worker threads, each with its own forward pass that takes the learner's weights. */
class OnWorkerThreads implements ShardRunner {
  constructor(
    private readonly setups: readonly ShardSetup[],
    private readonly threads: TrainThreads,
  ) {}

  play(iterations: readonly ShardIteration[], weights: MlpWeights): Promise<ShardResult[]> {
    return Promise.all(
      iterations.map((it, i) =>
        this.threads.playShard({
          ...it,
          setup: this.setups[i] as ShardSetup,
          weights,
          encodePositions: true,
        }),
      ),
    );
  }

  /** The threads are the run's (its update computes on them too): whoever made them ends them. */
  dispose(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The runner of a run on this machine: with worker threads (and more than
 * one shard) the shards go to them, each running the network on the setups'
 * inference backend; otherwise they are played in this thread on `engine`'s
 * (with tfjs on `tfjsBackend`).
 */
export function localShardRunner(
  engine: InferenceEngine,
  tfjsBackend: BackendChoice,
  setups: readonly ShardSetup[],
  threads: TrainThreads | null,
): ShardRunner {
  return threads !== null && setups.length > 1
    ? new OnWorkerThreads(setups, threads)
    : new InThisThread(engine, tfjsBackend, setups);
}

/** A shard between iterations: its games (null: fresh ones at the next) and its generator. */
interface ShardState {
  games: GamesInProgress | null;
  rng: Random;
}

/**
 * Expert iteration's self-play split into shards of games, each with its own
 * random generator, so that they can be played at once (the searches are
 * most of an iteration's time, and a laptop has more than one core). The
 * positions are added shard by shard in a fixed order, so the run is the same
 * whether the shards are played in this thread or by any number of workers.
 */
export class ShardedSelfPlay {
  readonly #shards: ShardState[];
  readonly #runner: ShardRunner;
  /** Positions run through the network so far (for benchmarks). */
  evaluations = 0;
  /** The inference the shards of the last `collect` ran on (see backendsText). */
  backends = '';
  /** Of the last `collect`'s searched positions, the share whose value the solver proved (0 without one). */
  provenShare = 0;
  /** Each shard's seconds in the last `collect`, where it played (for benchmarks). */
  shardSeconds: number[] = [];

  /**
   * `setups.length` shards, playing with the weights of the learner's
   * `model` (read at each `collect`), played by `runner` (localShardRunner,
   * or the queue's).
   */
  constructor(
    private readonly model: tfType.LayersModel,
    private readonly network: NetworkConfig,
    shards: number,
    runner: ShardRunner,
  ) {
    if (shards < 1) throw new RangeError('sharded self-play needs at least one shard');
    this.#shards = Array.from({ length: shards }, () => ({ games: null, rng: Random.fromSeed(0) }));
    this.#runner = runner;
  }

  /** Starts fresh games in every shard, each with a generator seeded from `rng`. */
  reset(rng: Random): void {
    for (const shard of this.#shards) {
      shard.rng = Random.fromSeed(rng.int(0x7fffffff));
      shard.games = null;
    }
    this.#runner.freshGames?.();
  }

  /**
   * Plays `moves` searched moves split over the shards (see
   * SearchSelfPlay.collect) and adds the finished games' positions to
   * `sink`, shard after shard. Everything random comes from the shards'
   * generators. `iteration` is the run's.
   */
  async collect(
    moves: number,
    sink: PositionSink,
    iteration: number,
  ): Promise<SearchSelfPlayStats> {
    const start = performance.now();
    const n = this.#shards.length;
    const results = await this.#runner.play(
      this.#shards.map((shard, i) => ({
        games: shard.games,
        rngState: shard.rng.getState(),
        moves: shareOf(moves, n, i),
      })),
      extractMlpWeights(this.model, this.network),
      iteration,
    );
    results.forEach((result, i) => {
      const shard = this.#shards[i] as ShardState;
      shard.games = result.games;
      shard.rng = Random.fromState(result.rngState);
      addPositions(result.positions, sink);
      this.evaluations += result.stats.evaluations;
    });
    this.backends = backendsText(results.map((r) => r.backend));
    this.shardSeconds = results.map((r) => r.stats.seconds);
    const stats = mergeStats(
      results.map((r) => r.stats),
      (performance.now() - start) / 1000,
    );
    this.provenShare = stats.plies > 0 ? stats.proven / stats.plies : 0;
    return stats;
  }

  /** Stops the worker threads and releases this thread's session. */
  dispose(): Promise<void> {
    return this.#runner.dispose();
  }
}

/**
 * The backends of an iteration's shards as one metrics cell: `wasm` when all
 * used the same, else each shard's in the shards' order (`onnx onnx tfjs-wasm`),
 * so that a run says which shard ran where (results agree across backends only
 * within rounding).
 */
export function backendsText(backends: readonly string[]): string {
  if (new Set(backends).size <= 1) return backends[0] ?? '';
  return backends.join(' ');
}

/** Shard i's part of `total` split as evenly as whole numbers allow over `parts` shards. */
export function shareOf(total: number, parts: number, i: number): number {
  return Math.floor((total * (i + 1)) / parts) - Math.floor((total * i) / parts);
}

function mergeStats(parts: readonly SearchSelfPlayStats[], seconds: number): SearchSelfPlayStats {
  let finishedPlies = 0;
  const out = { ...emptySearchStats(), seconds };
  for (const p of parts) {
    out.plies += p.plies;
    out.games += p.games;
    out.learnerSamples += p.learnerSamples;
    out.evaluations += p.evaluations;
    out.proven += p.proven;
    finishedPlies += p.meanGamePlies * p.games;
  }
  out.meanGamePlies = out.games > 0 ? finishedPlies / out.games : 0;
  return out;
}
