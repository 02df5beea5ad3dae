import type { Random } from '../../env/random.ts';
import type { BackendChoice } from '../../models/backend-choice.ts';
import type { InferenceBackend } from '../../models/inference/inference-engine.ts';
import type { ForwardPass, MlpWeights } from '../../models/mlp-runner.ts';
import type { SelfPlayStats } from '../iteration-stats.ts';
import type { MemoryEstimate } from '../memory/parts.ts';
import type { TrainConfig } from '../settings/schema.ts';

/**
 * Self-play in shards: an algorithm's games split into units of plain data
 * that another thread or another machine can play ("carry these games on
 * with this network for this many moves, and give back what the learner
 * takes from the games that ended"). The coordinator (sharded-self-play.ts)
 * gives every shard its own generator and takes the results in the shards'
 * order, so a run is the same whoever plays them. Everything here is the
 * protocol; what a shard carries and gives back is its algorithm's
 * (`ShardsOf`), which says how to play it and how to encode it for the
 * queue.
 */

/** What every shard reports of an iteration: the shared statistics, and counts of the algorithm's own. */
export interface ShardStats extends SelfPlayStats {
  /** Counts summed over the shards (expert iteration: the network's evaluations, the positions proven). */
  readonly tallies: Readonly<Record<string, number>>;
}

/**
 * What a shard's play is built from, the same for every iteration of a run:
 * its algorithm (a thread finds the player by it), what runs the network
 * (the learner's thread resolved it, so every shard runs alike; a queue's
 * worker names its own) and the algorithm's own part.
 */
export interface ShardSetup<S = unknown> {
  readonly algorithm: string;
  readonly inference: InferenceBackend;
  /** The tfjs backend, where tfjs runs the network. */
  readonly backend: BackendChoice;
  readonly play: S;
}

/** One iteration of one shard: what its games carry over (null: start fresh ones), its generator and its moves. */
export interface ShardIteration<C = unknown> {
  readonly carry: C | null;
  readonly rngState: readonly number[];
  readonly moves: number;
}

/** What a shard's player gives back of an iteration. */
export interface ShardPlay<C = unknown, O = unknown> {
  /** What the games still going on carry to the next iteration. */
  readonly carry: C;
  /** What the learner takes from the games that ended. */
  readonly output: O;
  readonly stats: ShardStats;
}

/** A shard's iteration as it comes back: the play, the generator, and what ran the network. */
export interface ShardResult<C = unknown, O = unknown> extends ShardPlay<C, O> {
  readonly rngState: number[];
  /**
   * What the shard's network ran on (`onnx`, `plain`, `tfjs-wasm`). Runs are
   * identical across machines for the same backend only: floating point
   * rounds differently on another.
   */
  readonly backend: string;
}

/**
 * What plays a shard's iterations in one thread: built once per setup with
 * a forward pass that takes each iteration's weights.
 */
export interface ShardPlayer<C = unknown, O = unknown> {
  /**
   * Carries the games `carry` on (fresh ones when null) for `moves` moves,
   * drawing from `rng`. `local`: the output goes to a learner on this machine
   * (it may hold what is too large to send over a network, such as the
   * positions' observations).
   */
  play(carry: C | null, moves: number, rng: Random, local: boolean): ShardPlay<C, O>;
}

/**
 * How a shard's data travels through the queue as JSON: what the games carry
 * and what they give back, each checked on the way in (data from another
 * machine is untrusted), throwing a ShardDataError (wire.ts) that names
 * `where`.
 */
export interface ShardCodec<S = unknown, C = unknown, O = unknown> {
  encodeCarry(carry: C, setup: S): unknown;
  decodeCarry(data: unknown, setup: S, where: string): C;
  encodeOutput(output: O): unknown;
  /** `stats`: the shard's statistics, already checked, that the output must agree with. */
  decodeOutput(data: unknown, stats: ShardStats, where: string): O;
}

/**
 * An algorithm's self-play in shards, as its folder defines it: how many, the
 * setup of each, the memory a shard's job needs, its player and its codec.
 */
export interface ShardsOf<Config, S, C, O> {
  /** How many shards a run of `config` has (a setting: never the machine's cores). */
  count(config: Config): number;
  /** The field of the algorithm's block that sets the count (messages name it). */
  readonly countSetting: string;
  /** Each shard's own setup for the run `config` (plain data). */
  setups(config: Config): readonly S[];
  /** The memory one shard's job of `moves` moves needs. */
  memory(config: Config, moves: number): MemoryEstimate;
  /** A player of shards of `setup` in this thread, its network run by `forward`. */
  player(setup: S, forward: ForwardPass): Promise<ShardPlayer<C, O>>;
  readonly codec: ShardCodec<S, C, O>;
}

/** Makes the player of a shard of `setup` (its algorithm's), its network run by `forward`. */
export type PlayerOf = (setup: ShardSetup, forward: ForwardPass) => Promise<ShardPlayer>;

/** Who plays shards on other threads (the run's worker threads, train/threads/). */
export interface ShardThreads {
  playShard<C, O>(task: ShardTask<C>): Promise<ShardResult<C, O>>;
}

/** A shard's iteration with all that playing it elsewhere needs: the setup and the learner's weights. */
export interface ShardTask<C = unknown> extends ShardIteration<C> {
  readonly setup: ShardSetup;
  readonly weights: MlpWeights;
  /** The result goes to a learner on this machine (see ShardPlayer.play). */
  readonly local: boolean;
}

/**
 * Plays one iteration of every shard with the learner's current weights, in
 * this thread, on worker threads or on other machines (the queue's runner);
 * results come back in the shards' order.
 */
export interface ShardRunner<C = unknown, O = unknown> {
  /** One iteration of every shard; `iteration` is the run's (it names the iteration in messages). */
  play(
    iterations: readonly ShardIteration<C>[],
    weights: MlpWeights,
    iteration: number,
  ): Promise<ShardResult<C, O>[]>;
  /**
   * Every shard starts fresh games (a checkpoint boundary): the iterations
   * played before are not asked for again (a runner may forget their results).
   */
  freshGames?(): void;
  dispose(): Promise<void>;
}

/** What a shard runner is made for: the run's config, its shards' setups and their codec. */
export interface ShardRunnerContext<C = unknown, O = unknown> {
  readonly config: TrainConfig;
  readonly setups: readonly ShardSetup[];
  readonly codec: ShardCodec<unknown, C, O>;
}

/** Makes the runner a run's shards are played by (the trainer takes one through TrainOptions). */
export type ShardRunnerFactory = <C, O>(context: ShardRunnerContext<C, O>) => ShardRunner<C, O>;
