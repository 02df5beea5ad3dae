import type { BackendChoice } from '../../models/backend-choice.ts';
import type { InferenceEngine } from '../../models/inference/inference-engine.ts';
import type { MlpWeights } from '../../models/mlp-runner.ts';
import { ShardPlayers } from './play-shard.ts';
import type {
  PlayerOf,
  ShardIteration,
  ShardResult,
  ShardRunner,
  ShardSetup,
  ShardThreads,
} from './protocol.ts';

/** Every shard in this thread, one after the other, with one network that takes the learner's weights. */
class InThisThread<C, O> implements ShardRunner<C, O> {
  readonly #players: ShardPlayers;

  constructor(
    engine: InferenceEngine,
    tfjsBackend: BackendChoice,
    private readonly setups: readonly ShardSetup[],
    playerOf: PlayerOf,
  ) {
    this.#players = new ShardPlayers(engine, tfjsBackend, playerOf);
  }

  async play(
    iterations: readonly ShardIteration<C>[],
    weights: MlpWeights,
  ): Promise<ShardResult<C, O>[]> {
    await this.#players.load(weights);
    const results: ShardResult<C, O>[] = [];
    for (const [i, iteration] of iterations.entries()) {
      results.push(await this.#players.play<C, O>(this.setups[i] as ShardSetup, iteration, true));
    }
    return results;
  }

  dispose(): Promise<void> {
    this.#players.dispose();
    return Promise.resolve();
  }
}

/** The shards on the run's worker threads, each thread with its own network that takes the learner's weights. */
class OnWorkerThreads<C, O> implements ShardRunner<C, O> {
  constructor(
    private readonly setups: readonly ShardSetup[],
    private readonly threads: ShardThreads,
  ) {}

  play(
    iterations: readonly ShardIteration<C>[],
    weights: MlpWeights,
  ): Promise<ShardResult<C, O>[]> {
    return Promise.all(
      iterations.map((iteration, i) =>
        this.threads.playShard<C, O>({
          ...iteration,
          setup: this.setups[i] as ShardSetup,
          weights,
          local: true,
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
 * The runner of a run's shards on this machine: with worker threads (and
 * more than one shard) the shards go to them, each running the network on
 * the setups' inference backend; otherwise they are played in this thread
 * on `engine`'s (with tfjs on `tfjsBackend`), by the players `playerOf` makes.
 */
export function localShardRunner<C, O>(
  engine: InferenceEngine,
  tfjsBackend: BackendChoice,
  setups: readonly ShardSetup[],
  threads: ShardThreads | null,
  playerOf: PlayerOf,
): ShardRunner<C, O> {
  return threads !== null && setups.length > 1
    ? new OnWorkerThreads<C, O>(setups, threads)
    : new InThisThread<C, O>(engine, tfjsBackend, setups, playerOf);
}
