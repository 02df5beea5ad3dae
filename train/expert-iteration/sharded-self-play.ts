import { fileURLToPath } from 'node:url';
import type * as tfType from '@tensorflow/tfjs';
import { Piscina } from 'piscina';
import { Random } from '../../env/random.ts';
import type { Tf } from '../../models/backend.ts';
import { addPositions, type PositionSink } from './position-log.ts';
import {
  emptySearchStats,
  type GamesInProgress,
  type SearchSelfPlayStats,
} from './search-self-play.ts';
import {
  type ShardIteration,
  ShardPlayer,
  type ShardResult,
  type ShardSetup,
  type ShardTask,
  weightArrays,
} from './shard.ts';

const WORKER_FILE = fileURLToPath(new URL('./self-play-worker.js', import.meta.url));

/**
 * Plays one iteration of every shard, in this thread, on worker threads or
 * (later) elsewhere; results come back in the shards' order.
 */
export interface ShardRunner {
  play(iterations: readonly ShardIteration[]): Promise<ShardResult[]>;
  dispose(): Promise<void>;
}

/** Every shard in this thread, one after the other, with the learner's own network. */
class InThisThread implements ShardRunner {
  readonly #players: ShardPlayer[];

  constructor(tf: Tf, model: tfType.LayersModel, setups: readonly ShardSetup[]) {
    this.#players = setups.map((setup) => new ShardPlayer(tf, model, setup));
  }

  play(iterations: readonly ShardIteration[]): Promise<ShardResult[]> {
    return Promise.resolve(iterations.map((it, i) => (this.#players[i] as ShardPlayer).play(it)));
  }

  dispose(): Promise<void> {
    return Promise.resolve();
  }
}

/** The shards on up to `threads` worker threads, each with a copy of the network that takes the learner's weights. */
class OnWorkerThreads implements ShardRunner {
  readonly #pool: Piscina<ShardTask, ShardResult>;

  constructor(
    private readonly model: tfType.LayersModel,
    private readonly setups: readonly ShardSetup[],
    threads: number,
  ) {
    const size = Math.min(threads, setups.length);
    this.#pool = new Piscina<ShardTask, ShardResult>({
      filename: WORKER_FILE,
      minThreads: size,
      maxThreads: size,
    });
  }

  play(iterations: readonly ShardIteration[]): Promise<ShardResult[]> {
    const weights = weightArrays(this.model);
    return Promise.all(
      iterations.map((it, i) =>
        this.#pool.run({ ...it, setup: this.setups[i] as ShardSetup, weights }),
      ),
    );
  }

  dispose(): Promise<void> {
    return this.#pool.destroy();
  }
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

  /**
   * One shard per setup. With `threads` > 0 (and more than one shard) the
   * shards go to that many worker threads, each building its network from
   * the shard's setup; otherwise they are played in this thread with the
   * learner's own network.
   */
  constructor(tf: Tf, model: tfType.LayersModel, setups: readonly ShardSetup[], threads: number) {
    if (setups.length === 0) throw new RangeError('sharded self-play needs at least one shard');
    this.#shards = setups.map(() => ({ games: null, rng: Random.fromSeed(0) }));
    this.#runner =
      threads > 0 && setups.length > 1
        ? new OnWorkerThreads(model, setups, threads)
        : new InThisThread(tf, model, setups);
  }

  /** Starts fresh games in every shard, each with a generator seeded from `rng`. */
  reset(rng: Random): void {
    for (const shard of this.#shards) {
      shard.rng = Random.fromSeed(rng.int(0x7fffffff));
      shard.games = null;
    }
  }

  /**
   * Plays `moves` searched moves split over the shards (see
   * SearchSelfPlay.collect) and adds the finished games' positions to
   * `sink`, shard after shard. Everything random comes from the shards'
   * generators.
   */
  async collect(moves: number, sink: PositionSink): Promise<SearchSelfPlayStats> {
    const start = performance.now();
    const n = this.#shards.length;
    const results = await this.#runner.play(
      this.#shards.map((shard, i) => ({
        games: shard.games,
        rngState: shard.rng.getState(),
        moves: shareOf(moves, n, i),
      })),
    );
    results.forEach((result, i) => {
      const shard = this.#shards[i] as ShardState;
      shard.games = result.games;
      shard.rng = Random.fromState(result.rngState);
      addPositions(result.positions, sink);
      this.evaluations += result.stats.evaluations;
    });
    return mergeStats(
      results.map((r) => r.stats),
      (performance.now() - start) / 1000,
    );
  }

  /** Stops the worker threads. */
  dispose(): Promise<void> {
    return this.#runner.dispose();
  }
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
    finishedPlies += p.meanGamePlies * p.games;
  }
  out.meanGamePlies = out.games > 0 ? finishedPlies / out.games : 0;
  return out;
}
