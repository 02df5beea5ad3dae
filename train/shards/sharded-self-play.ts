import type * as tfType from '@tensorflow/tfjs';
import { Random } from '../../env/random.ts';
import { extractMlpWeights, type NetworkConfig } from '../../models/policy-value-model.ts';
import type { ShardIteration, ShardRunner, ShardStats } from './protocol.ts';

/** What an iteration of every shard gave, in the shards' order. */
export interface ShardedPlay<O> {
  /** Each shard's output (what the learner takes from its finished games), in the shards' order. */
  readonly outputs: readonly O[];
  /** The shards' statistics summed (their seconds: the whole iteration's, here). */
  readonly stats: ShardStats;
}

/** A shard between iterations: what its games carry (null: fresh ones at the next) and its generator. */
interface ShardState<C> {
  carry: C | null;
  rng: Random;
}

/**
 * An algorithm's self-play split into shards of games, each with its own
 * random generator, so that they can be played at once (self-play is most
 * of an iteration's time, and a laptop has more than one core). The outputs
 * come back in the shards' order, so the run is the same whether the shards
 * are played in this thread, by any number of worker threads or by the
 * queue's workers.
 */
export class ShardedSelfPlay<C, O> {
  readonly #shards: ShardState<C>[];
  readonly #runner: ShardRunner<C, O>;
  /** The tallies of every iteration so far, summed (benchmarks read the network's evaluations). */
  readonly tallies: Record<string, number> = {};
  /** The inference the shards of the last `play` ran on (see backendsText). */
  backends = '';
  /** Each shard's seconds in the last `play`, where it played (benchmarks). */
  shardSeconds: number[] = [];

  /**
   * `shards` shards, playing with the weights of the learner's `model` (read
   * at each `play`), played by `runner` (localShardRunner, or the queue's).
   */
  constructor(
    private readonly model: tfType.LayersModel,
    private readonly network: NetworkConfig,
    shards: number,
    runner: ShardRunner<C, O>,
  ) {
    if (shards < 1) throw new RangeError('sharded self-play needs at least one shard');
    this.#shards = Array.from({ length: shards }, () => ({ carry: null, rng: Random.fromSeed(0) }));
    this.#runner = runner;
  }

  /** Starts fresh games in every shard, each with a generator seeded from `rng`. */
  reset(rng: Random): void {
    for (const shard of this.#shards) {
      shard.rng = Random.fromSeed(rng.int(0x7fffffff));
      shard.carry = null;
    }
    this.#runner.freshGames?.();
  }

  /**
   * Plays `moves` moves split over the shards with the model's current
   * weights; everything random comes from the shards' generators. `iteration`
   * is the run's.
   */
  async play(moves: number, iteration: number): Promise<ShardedPlay<O>> {
    const start = performance.now();
    const n = this.#shards.length;
    const iterations: ShardIteration<C>[] = this.#shards.map((shard, i) => ({
      carry: shard.carry,
      rngState: shard.rng.getState(),
      moves: shareOf(moves, n, i),
    }));
    const weights = extractMlpWeights(this.model, this.network);
    const results = await this.#runner.play(iterations, weights, iteration);
    results.forEach((result, i) => {
      const shard = this.#shards[i] as ShardState<C>;
      shard.carry = result.carry;
      shard.rng = Random.fromState(result.rngState);
    });
    this.backends = backendsText(results.map((r) => r.backend));
    this.shardSeconds = results.map((r) => r.stats.seconds);
    const stats = mergeStats(
      results.map((r) => r.stats),
      (performance.now() - start) / 1000,
    );
    for (const [name, count] of Object.entries(stats.tallies)) {
      this.tallies[name] = (this.tallies[name] ?? 0) + count;
    }
    return { outputs: results.map((r) => r.output), stats };
  }

  /** Stops what the runner runs (not the run's threads: whoever made them ends them). */
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

/** The shards' statistics as one iteration's: sums, and the mean game length weighed by games. */
function mergeStats(parts: readonly ShardStats[], seconds: number): ShardStats {
  let plies = 0;
  let games = 0;
  let learnerSamples = 0;
  let finishedPlies = 0;
  const tallies: Record<string, number> = {};
  for (const p of parts) {
    plies += p.plies;
    games += p.games;
    learnerSamples += p.learnerSamples;
    finishedPlies += p.meanGamePlies * p.games;
    for (const [name, count] of Object.entries(p.tallies))
      tallies[name] = (tallies[name] ?? 0) + count;
  }
  const meanGamePlies = games > 0 ? finishedPlies / games : 0;
  return { plies, games, learnerSamples, seconds, meanGamePlies, tallies };
}
