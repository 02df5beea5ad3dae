import { fileURLToPath } from 'node:url';
import type * as tfType from '@tensorflow/tfjs';
import { Piscina } from 'piscina';
import { Random } from '../../env/random.ts';
import { emptyRolloutStats, type RolloutStats } from '../ppo/rollouts.ts';
import { addPositions } from './position-log.ts';
import type { SearchBuffer } from './replay-buffer.ts';
import type { GamesInProgress, SearchSelfPlay } from './search-self-play.ts';
import { type ShardResult, type ShardSetup, type ShardTask, weightArrays } from './shard.ts';

const WORKER_FILE = fileURLToPath(new URL('./self-play-worker.js', import.meta.url));

interface Shard {
  /** Plays the shard in this thread (no worker threads), else null. */
  readonly local: SearchSelfPlay | null;
  /** The shard's games between iterations when a worker plays it (null: fresh games at the next). */
  games: GamesInProgress | null;
  rng: Random;
}

/**
 * Expert iteration's self-play split into shards of games, each with its own
 * random generator, so that worker threads can play them at once (the
 * searches are most of an iteration's time, and a laptop has more than one
 * core). The positions are added shard by shard in a fixed order, so the run
 * is the same whether the shards are played by 0, 1 or more workers.
 */
export class ShardedSelfPlay {
  readonly #shards: Shard[];
  readonly #pool: Piscina<ShardTask, ShardResult> | null;
  /** Positions run through the network so far (for benchmarks). */
  evaluations = 0;

  /**
   * One shard per setup. With `threads` > 0 (and more than one shard) the
   * shards go to that many worker threads, each building its network from
   * the shard's setup; otherwise `playLocally` makes each shard's self-play
   * in this thread, with the learner's own network.
   */
  constructor(
    private readonly model: tfType.LayersModel,
    private readonly setups: readonly ShardSetup[],
    threads: number,
    playLocally: (setup: ShardSetup) => SearchSelfPlay,
  ) {
    if (setups.length === 0) throw new RangeError('sharded self-play needs at least one shard');
    const pooled = threads > 0 && setups.length > 1;
    this.#shards = setups.map((setup) => ({
      local: pooled ? null : playLocally(setup),
      games: null,
      rng: Random.fromSeed(0),
    }));
    this.#pool = pooled
      ? new Piscina<ShardTask, ShardResult>({
          filename: WORKER_FILE,
          minThreads: Math.min(threads, setups.length),
          maxThreads: Math.min(threads, setups.length),
        })
      : null;
  }

  /** Starts fresh games in every shard, each with a generator seeded from `rng`. */
  reset(rng: Random): void {
    for (const shard of this.#shards) {
      shard.rng = Random.fromSeed(rng.int(0x7fffffff));
      shard.games = null;
      shard.local?.reset(shard.rng);
    }
  }

  /**
   * Plays `moves` searched moves split over the shards (see
   * SearchSelfPlay.collect) and adds the finished games' positions to
   * `buffer` as a new iteration of its replay window, shard after shard.
   * Everything random comes from the shards' generators.
   */
  async collect(moves: number, buffer: SearchBuffer): Promise<RolloutStats> {
    const start = performance.now();
    buffer.startIteration();
    const n = this.#shards.length;
    const results: RolloutStats[] = [];
    if (this.#pool === null) {
      this.#shards.forEach((shard, i) => {
        const local = shard.local as SearchSelfPlay;
        const before = local.evaluations;
        results.push(local.collect(shareOf(moves, n, i), buffer, shard.rng));
        this.evaluations += local.evaluations - before;
      });
    } else {
      const pool = this.#pool;
      const weights = weightArrays(this.model);
      const done = await Promise.all(
        this.#shards.map((shard, i) =>
          pool.run({
            setup: this.setups[i] as ShardSetup,
            weights,
            games: shard.games,
            rngState: shard.rng.getState(),
            moves: shareOf(moves, n, i),
          }),
        ),
      );
      done.forEach((result, i) => {
        const shard = this.#shards[i] as Shard;
        shard.games = result.games;
        shard.rng = Random.fromState(result.rngState);
        addPositions(result.positions, buffer);
        results.push(result.stats);
        this.evaluations += result.evaluations;
      });
    }
    return mergeStats(results, (performance.now() - start) / 1000);
  }

  /** Stops the worker threads. */
  async dispose(): Promise<void> {
    await this.#pool?.destroy();
  }
}

/** Shard i's part of `total` split as evenly as whole numbers allow over `parts` shards. */
export function shareOf(total: number, parts: number, i: number): number {
  return Math.floor((total * (i + 1)) / parts) - Math.floor((total * i) / parts);
}

function mergeStats(parts: readonly RolloutStats[], seconds: number): RolloutStats {
  const out = emptyRolloutStats();
  let finishedPlies = 0;
  for (const p of parts) {
    out.plies += p.plies;
    out.games += p.games;
    out.learnerSamples += p.learnerSamples;
    finishedPlies += p.meanGamePlies * p.games;
  }
  out.meanGamePlies = out.games > 0 ? finishedPlies / out.games : 0;
  out.seconds = seconds;
  return out;
}
