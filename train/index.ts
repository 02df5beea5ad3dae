/**
 * Training: expert iteration (self-play searched with the network), PPO or
 * REINFORCE, or an algorithm of one's own (defineAlgorithm,
 * registerAlgorithm), the checkpoints and metrics of a run, the policy's
 * evaluation against the baselines.
 */

/** A run folder in use by another process: train() throws it, naming the holder. */
export { FolderLockError } from '../files/folder-lock.ts';
export {
  type AlgorithmDefinition,
  type AlgorithmDescriptor,
  type BuildOptions,
  defineAlgorithm,
} from './algorithm/descriptor.ts';

import { registerBuiltinAlgorithms } from './builtin-algorithms.ts';
import { buildConfig } from './config/build.ts';

registerBuiltinAlgorithms();

export { algorithmNames, algorithms, registerAlgorithm } from './algorithm/registry.ts';
export {
  type ExpertIterationSettings,
  type PpoSettings,
  registerBuiltinAlgorithms,
} from './builtin-algorithms.ts';
export { buildConfig } from './config/build.ts';
export { readLayer } from './config/layers.ts';
export { parseTrainConfig, trainConfigSchema } from './config/validate.ts';

/** The config of a run that sets nothing (of the default algorithm, PPO). */
export const DEFAULT_CONFIG = buildConfig([]);
export type {
  LearnerParts,
  OwnMetrics,
  PolicySnapshots,
  PositionWindow,
  TrainingAlgorithm,
} from './algorithm/training-algorithm.ts';
export { PRESETS } from './config/presets.ts';
export {
  RunFolderError,
  type RunFolderReason,
  TrainConfigError,
  TrainingDivergedError,
} from './errors.ts';
export type { SelfPlayStats, UpdateStats } from './iteration-stats.ts';
export { type EvaluationResult, type EvaluationRow, evaluatePolicy } from './report/evaluate.ts';
export type { ConfigLayer } from './settings/layer.ts';
export {
  type ConfigOf,
  type SharedSettings,
  setting,
  type TrainConfig,
} from './settings/schema.ts';
export { runPaths, type TrainOptions, type TrainResult, train } from './trainer.ts';
