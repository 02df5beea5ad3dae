import type { InferenceBackend } from '../../models/inference/inference-engine.ts';
import { algorithmOf } from '../algorithm/registry.ts';
import type { LearnerParts } from '../algorithm/training-algorithm.ts';
import type { TrainConfig } from '../config/schema.ts';
import type { TrainThreads } from '../threads/train-threads.ts';
import { localShardRunner } from './local-runner.ts';
import type { ShardCodec, ShardRunnerFactory, ShardSetup } from './protocol.ts';
import { ShardedSelfPlay } from './sharded-self-play.ts';

/**
 * Each shard's setup for a run of `config` (its algorithm's own part, as its
 * `shards.setups` makes it), with `inference` running the network: the
 * learner builds them with its own backend, a queue's worker with its own.
 */
export function runShardSetups(config: TrainConfig, inference: InferenceBackend): ShardSetup[] {
  const { shards } = algorithmOf(config);
  if (shards === null) throw new Error(`${config.algorithm} plays no self-play shards`);
  return shards.setups(config).map((play) => ({
    algorithm: config.algorithm,
    inference,
    backend: config.backend,
    play,
  }));
}

/**
 * The self-play of a run of `config` in shards, on the learner's network:
 * played by `shardRunner`'s runner when given (the queue's), else on
 * `threads` when there are some, else in this thread. `codec` is the
 * algorithm's (its types are the shards' carry and output).
 */
export function buildShardedSelfPlay<S, C, O>(
  { model, inference }: Pick<LearnerParts, 'model' | 'inference'>,
  config: TrainConfig,
  codec: ShardCodec<S, C, O>,
  threads: TrainThreads | null,
  shardRunner?: ShardRunnerFactory,
): ShardedSelfPlay<C, O> {
  const setups = runShardSetups(config, inference.backend);
  const runner =
    shardRunner !== undefined
      ? shardRunner<C, O>({ config, setups, codec })
      : localShardRunner<C, O>(inference, config.backend, setups, threads);
  const network = { hidden: config.hidden, activation: config.activation };
  return new ShardedSelfPlay<C, O>(model, network, setups.length, runner);
}
