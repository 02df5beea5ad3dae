import { UnrecoverableError } from 'bullmq';
import { observationSize } from '../env/gym/observation.ts';
import type { InferenceBackend } from '../models/inference/inference-engine.ts';
import type { MlpWeights } from '../models/mlp-runner.ts';
import { algorithmOf } from '../train/algorithm/registry.ts';
import { observationOf, type TrainConfig } from '../train/settings/schema.ts';
import { runShardSetups } from '../train/shards/build.ts';
import { ShardDataError } from '../train/shards/wire.ts';
import type { TrainThreads } from '../train/threads/train-threads.ts';
import { acceptJob } from './accept-job.ts';
import { QueueError } from './errors.ts';
import { checkShardMemory } from './job-memory.ts';
import { type EncodedShardResult, type ShardJob, shardJobSchema } from './jobs.ts';
import type { PolicyCache } from './policy-transport.ts';
import { encodeShardResult } from './shard-codec.ts';
import type { TrainWorker } from './train-job.ts';

/** A job this worker must never run again: it fails at once with `message`, for the coordinator to print. */
function refuse(message: string): never {
  throw new UnrecoverableError(message);
}

/** Refuses a network whose architecture is not the run's (a mixed-up or forged job). */
function checkNetworkFits(weights: MlpWeights, config: TrainConfig, where: string): void {
  const obsSize = observationSize(observationOf(config));
  const widths = weights.hidden.map((h) => h.outputSize);
  const activations = new Set(weights.hidden.map((h) => h.activation));
  const fits =
    weights.inputSize === obsSize &&
    widths.join(',') === config.hidden.join(',') &&
    activations.size === 1 &&
    activations.has(config.activation);
  if (!fits) {
    refuse(
      `${where}: the network (${weights.inputSize} inputs, hidden ${widths.join(',')} ${[...activations].join('/')}) does not fit the run's (${obsSize} inputs, hidden ${config.hidden.join(',')} ${config.activation})`,
    );
  }
}

/**
 * Plays one iteration of one self-play shard of a training run (a job of
 * `train --queue`): checks the job's version, data and memory, rebuilds the shard's
 * setup from the run's config as the trainer does, takes the iteration's
 * network from the store (validated: checksum, size cap, finite weights, and
 * cached by sha256), and plays it on one of `threads`, so that this thread
 * stays free to renew the job's lock, with `inference` running the network
 * (this worker's backend, named in the result). The result goes back encoded.
 */
export async function playShardJob(
  data: unknown,
  policies: PolicyCache,
  threads: TrainThreads,
  inference: InferenceBackend,
  worker: TrainWorker,
): Promise<EncodedShardResult> {
  const job: ShardJob = acceptJob(shardJobSchema, data, 'self-play shard job', worker, () => []);
  const where = `self-play shard ${job.shard} of iteration ${job.iteration} of run ${job.config.name}`;
  // The schema checked the config, its algorithm among them.
  const { shards } = algorithmOf(job.config);
  if (shards === null) {
    refuse(`${where}: the run's algorithm is ${job.config.algorithm}, which plays no shards`);
  }
  const setups = runShardSetups(job.config, shards, inference);
  const setup = setups[job.shard];
  if (setup === undefined) refuse(`${where}: the run has ${setups.length} shards`);
  try {
    checkShardMemory(shards.memory(job.config, job.moves), worker.maxJobMemory);
  } catch (err) {
    refuse(`${where}: ${(err as Error).message}`);
  }
  // A network that fails its checks may be a damaged copy in the store: tried again, then reported.
  const network = await policies.policy(job.network, 'network');
  checkNetworkFits(network.weights, job.config, where);
  let carry: unknown = null;
  try {
    carry = job.carry === null ? null : shards.codec.decodeCarry(job.carry, setup.play, where);
  } catch (err) {
    if (err instanceof ShardDataError || err instanceof QueueError) refuse(err.message);
    throw err;
  }
  const result = await threads.playShard({
    setup,
    weights: network.weights,
    carry,
    rngState: job.rngState,
    moves: job.moves,
    local: false,
  });
  return encodeShardResult(result, shards.codec, setup.play);
}
