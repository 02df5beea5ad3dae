import type * as tfType from '@tensorflow/tfjs';
import type { InferenceBackend, InferenceEngine } from '../../models/inference/inference-engine.ts';
import type { TrainConfig } from '../settings/schema.ts';
import { localShardRunner } from './local-runner.ts';
import type { ShardRunnerFactory, ShardSetup, ShardsOf, ShardThreads } from './protocol.ts';
import { ShardedSelfPlay } from './sharded-self-play.ts';

/**
 * Each shard's setup for a run of `config` (`shards`' own part, as its
 * `setups` makes it), with `inference` running the network: the learner
 * builds them with its own backend, a queue's worker with its own.
 */
export function runShardSetups<Config extends TrainConfig, S>(
  config: Config,
  shards: Pick<ShardsOf<Config, S, unknown, unknown>, 'setups'>,
  inference: InferenceBackend,
): ShardSetup<S>[] {
  return shards.setups(config).map((play) => ({
    algorithm: config.algorithm,
    inference,
    backend: config.backend,
    play,
  }));
}

/** What sharded self-play is built on: the learner's network and what runs it. */
export interface ShardedNetwork {
  readonly model: tfType.LayersModel;
  readonly inference: InferenceEngine;
}

/**
 * The self-play of a run of `config` in `shards` (its algorithm's), on the
 * learner's network: played by `shardRunner`'s runner when given (the
 * queue's), else on `threads` when there are some, else in this thread.
 */
export function buildShardedSelfPlay<Config extends TrainConfig, S, C, O>(
  { model, inference }: ShardedNetwork,
  config: Config,
  shards: ShardsOf<Config, S, C, O>,
  threads: ShardThreads | null,
  shardRunner?: ShardRunnerFactory,
): ShardedSelfPlay<C, O> {
  const setups = runShardSetups(config, shards, inference.backend);
  const runner =
    shardRunner !== undefined
      ? shardRunner<C, O>({ config, setups, codec: shards.codec })
      : localShardRunner<C, O>(inference, config.backend, setups, threads, (setup, forward) =>
          shards.player(setup.play as S, forward),
        );
  const network = { hidden: config.hidden, activation: config.activation };
  return new ShardedSelfPlay<C, O>(model, network, setups.length, runner);
}
