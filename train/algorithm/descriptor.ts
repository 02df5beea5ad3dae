import type { z } from 'zod';
import type { JobFiles } from '../../agents/spec.ts';
import type { MemoryPart } from '../memory/parts.ts';
import type { ConfigLayer } from '../settings/layer.ts';
import type { ConfigOf, TrainConfig } from '../settings/schema.ts';
import type { ShardRunnerFactory, ShardsOf } from '../shards/protocol.ts';
import type { LearnerParts, TrainingAlgorithm } from './training-algorithm.ts';

/** How the learner builds an algorithm beyond its network: the threads, and who plays its shards. */
export interface BuildOptions {
  /** Worker threads its self-play and its update's gradient slices may use (0: this thread). */
  readonly workers: number;
  /** Who plays its self-play shards instead of this machine's threads (the queue's runner). */
  readonly shardRunner?: ShardRunnerFactory;
  /** A queue job's files: the only ones its training opponents may read. */
  readonly files?: JobFiles;
}

/**
 * An algorithm's self-play in shards (train/shards/protocol.ts), as the
 * trainer, the worker threads and the queue see it: for any config, setup,
 * carry and output.
 */
export type SelfPlayShards = ShardsOf<TrainConfig, unknown, unknown, unknown>;

/** A named starting point, or a part of one (a preset's block for this algorithm). */
export interface Preset {
  /** Its line in `--preset`'s help (a part of a preset named elsewhere has none). */
  readonly help?: string;
  readonly settings: ConfigLayer;
}

/**
 * Everything the trainer, the config builder, the flags, the queue and the
 * CLI know of a training algorithm: each algorithm's folder exports one, the
 * registry (train/algorithms.ts) lists them, and nothing else names an
 * algorithm. Make one with `defineAlgorithm`.
 */
export interface AlgorithmDescriptor {
  /** The `--algorithm` names it trains, each with its help; the first is its own. */
  readonly names: Readonly<Record<string, string>>;
  /** What its settings are called in the help ("PPO and REINFORCE"). */
  readonly title: string;
  /** The key of its block of settings in a config (`ppo`). */
  readonly block: string;
  /** Its block's schema: every field with its default and help (see config/schema.ts's `setting`). */
  readonly settings: z.ZodObject;
  /** Flags that still set a field under an earlier name (`num-envs` -> `gamesAtOnce`). */
  readonly aliases: Readonly<Record<string, string>>;
  /** For a flag of another algorithm given with this one, what this one does instead. */
  readonly hints: Readonly<Record<string, string>>;
  /** Its presets, and its blocks of presets named elsewhere (`smoke`). */
  readonly presets: Readonly<Record<string, Preset>>;
  /** The metrics.csv columns it fills, with their meaning; other algorithms leave them empty. */
  readonly metrics: readonly (readonly [string, string])[];
  /** The algorithm for a run of `config`, on the learner's network. */
  build(
    parts: LearnerParts,
    config: TrainConfig,
    options: BuildOptions,
  ): Promise<TrainingAlgorithm>;
  /** What a run of `config` on `threads` worker threads keeps in memory besides the network and the process. */
  memory(config: TrainConfig, threads: number): MemoryPart[];
  /** The agent specs it plays against in training (their files travel with a queued run). */
  opponents(config: TrainConfig): readonly string[];
  /** Its self-play in shards that the queue's workers can play, or null. */
  readonly shards: SelfPlayShards | null;
  /**
   * Why its games cannot be played by other machines (the queue) when it has
   * no shards, said after its name's `'s` ("rollouts step all environments in
   * lockstep ...").
   */
  readonly whyNoShards: string;
}

/** A layer of a preset as an algorithm writes it: its block typed. */
type PresetOf<N extends string, K extends string, S> = {
  readonly help?: string;
  readonly settings: Omit<ConfigLayer, 'algorithm'> & {
    readonly algorithm?: N;
  } & { readonly [key in K]?: Partial<S> };
};

/** An algorithm as its folder defines it: its functions take its own config, typed. */
export interface AlgorithmDefinition<
  N extends string,
  K extends string,
  S extends z.ZodObject,
  Setup = unknown,
  Carry = unknown,
  Output = unknown,
> {
  readonly names: Readonly<Record<N, string>>;
  readonly title: string;
  readonly block: K;
  readonly settings: S;
  readonly aliases?: Readonly<Record<string, keyof z.output<S> & string>>;
  readonly hints?: Readonly<Record<string, string>>;
  readonly presets?: Readonly<Record<string, PresetOf<N, K, z.output<S>>>>;
  readonly metrics?: readonly (readonly [string, string])[];
  build(
    parts: LearnerParts,
    config: ConfigOf<N, K, z.output<S>>,
    options: BuildOptions,
  ): Promise<TrainingAlgorithm>;
  memory(config: ConfigOf<N, K, z.output<S>>, threads: number): MemoryPart[];
  opponents?(config: ConfigOf<N, K, z.output<S>>): readonly string[];
  readonly shards?: ShardsOf<ConfigOf<N, K, z.output<S>>, Setup, Carry, Output>;
  readonly whyNoShards?: string;
}

/**
 * The descriptor of an algorithm: its functions narrowed to the configs of
 * its own names (the registry only ever passes it those, validated by the
 * schema its settings are part of).
 */
export function defineAlgorithm<
  const N extends string,
  const K extends string,
  S extends z.ZodObject,
  Setup,
  Carry,
  Output,
>(definition: AlgorithmDefinition<N, K, S, Setup, Carry, Output>): AlgorithmDescriptor {
  const { names, title, block, shards } = definition;
  type Own = ConfigOf<N, K, z.output<S>>;
  const isOwn = (config: TrainConfig): config is Own => {
    const fields: Readonly<Record<string, unknown>> = config;
    const settings = fields[block];
    return Object.hasOwn(names, config.algorithm) && typeof settings === 'object';
  };
  const own = (config: TrainConfig): Own => {
    if (!isOwn(config)) {
      throw new Error(`a config of ${config.algorithm} was given to the ${title} algorithm`);
    }
    return config;
  };
  return {
    names,
    title,
    block,
    settings: definition.settings,
    aliases: definition.aliases ?? {},
    hints: definition.hints ?? {},
    presets: definition.presets ?? {},
    metrics: definition.metrics ?? [],
    build: (parts, config, options) => definition.build(parts, own(config), options),
    memory: (config, threads) => definition.memory(own(config), threads),
    opponents: (config) => definition.opponents?.(own(config)) ?? [],
    shards: shards === undefined ? null : ownShards(shards, own),
    whyNoShards: definition.whyNoShards ?? 'games are played in one process',
  };
}

/**
 * An algorithm's shards as the descriptor holds them. The trainer, the
 * threads and the queue hand a shard's functions only what its own functions
 * made (setups from `setups`, carries and outputs from its player or its
 * codec's decoding), so they are taken back as its own types.
 */
function ownShards<Own, Setup, Carry, Output>(
  shards: ShardsOf<Own, Setup, Carry, Output>,
  own: (config: TrainConfig) => Own,
): SelfPlayShards {
  const { codec } = shards;
  return {
    count: (config) => shards.count(own(config)),
    countSetting: shards.countSetting,
    setups: (config) => shards.setups(own(config)),
    memory: (config, moves) => shards.memory(own(config), moves),
    player: (setup, forward) => shards.player(setup as Setup, forward),
    codec: {
      encodeCarry: (carry, setup) => codec.encodeCarry(carry as Carry, setup as Setup),
      decodeCarry: (data, setup, where) => codec.decodeCarry(data, setup as Setup, where),
      encodeOutput: (output) => codec.encodeOutput(output as Output),
      decodeOutput: (data, stats, where) => codec.decodeOutput(data, stats, where),
    },
  };
}
