import type * as tfType from '@tensorflow/tfjs';
import { observationSize } from '../env/gym/observation.ts';
import type { Rules } from '../env/rules.ts';
import type { Tf } from '../models/backend.ts';
import { inferenceChoice } from '../models/inference/choice.ts';
import { inferenceEngine } from '../models/inference/inference-engine.ts';
import { makePolicyFile, type PolicyFile } from '../models/policy-file.ts';
import { createPolicyValueModel, extractMlpWeights } from '../models/policy-value-model.ts';
import type { BuildOptions } from './algorithm/descriptor.ts';
import { algorithmOf } from './algorithm/registry.ts';
import type { LearnerParts, TrainingAlgorithm } from './algorithm/training-algorithm.ts';
import { observationOf, type SharedSettings, type TrainConfig } from './settings/schema.ts';

/** Everything that learns or plays in a run: the network, its optimiser, the algorithm's self-play and update. */
export interface Learner extends LearnerParts {
  readonly algorithm: TrainingAlgorithm;
}

/**
 * Builds a fresh learner for `config`: the network seeded with the run's seed,
 * Adam at the configured rate, the process's inference backend for
 * self-play (models/inference/), and the run's algorithm, as its descriptor
 * builds it (train/algorithms.ts: its self-play may use up to `workers`
 * threads, or the queue's runner of its shards; the update's gradient slices
 * use the same threads, and give the same sums on any number of them). The trainer and the
 * self-play benchmark both start from here; disposeLearner ends it.
 */
export async function buildLearner(
  tf: Tf,
  config: TrainConfig,
  options: Partial<BuildOptions> = {},
): Promise<Learner> {
  const { rules } = config;
  const obsSize = observationSize(observationOf(config));
  const model = createPolicyValueModel(
    tf,
    obsSize,
    { hidden: config.hidden, activation: config.activation },
    config.seed,
  );
  const optimizer = tf.train.adam(config.learningRate);
  const inference = await inferenceEngine(inferenceChoice(), { tfjsBackend: config.backend });
  const parts: LearnerParts = { tf, rules, obsSize, model, optimizer, inference };
  const algorithm = await algorithmOf(config).build(parts, config, {
    ...options,
    workers: options.workers ?? 0,
  });
  return { ...parts, algorithm };
}

/** Frees the learner's tensors and stops its self-play worker threads. */
export async function disposeLearner(learner: Learner): Promise<void> {
  await learner.algorithm.dispose();
  learner.optimizer.dispose();
  learner.model.dispose();
}

/** The learner's current weights as a policy file, stamped with the run and iteration. */
export function learnerPolicyFile(
  learner: { readonly model: tfType.LayersModel; readonly rules: Rules },
  config: SharedSettings,
  at: { readonly iteration: number; readonly samples: number },
  evaluation?: Record<string, number>,
): PolicyFile {
  return makePolicyFile(extractMlpWeights(learner.model, config), {
    observation: observationOf(config),
    rules: learner.rules,
    source: {
      run: config.name,
      iteration: at.iteration,
      samples: at.samples,
      createdAt: new Date().toISOString(),
    },
    ...(evaluation ? { evaluation } : {}),
  });
}
