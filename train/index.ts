/**
 * Training: expert iteration (self-play searched with the network), PPO or
 * REINFORCE, the checkpoints and metrics of a run, the policy's evaluation
 * against the baselines.
 */

/** A run folder in use by another process: train() throws it, naming the holder. */
export { FolderLockError } from '../eval/folder-lock.ts';
export { buildConfig, parseTrainConfig } from './config/build.ts';
export { type ConfigLayer, DEFAULT_CONFIG, PRESETS } from './config/presets.ts';
export {
  ALGORITHMS,
  type ExpertIterationSettings,
  type PpoSettings,
  type SharedSettings,
  type TrainConfig,
  trainConfigSchema,
} from './config/schema.ts';
export {
  RunFolderError,
  type RunFolderReason,
  TrainConfigError,
  TrainingDivergedError,
} from './errors.ts';
export { type EvaluationResult, type EvaluationRow, evaluatePolicy } from './report/evaluate.ts';
export { runPaths, type TrainOptions, type TrainResult, train } from './trainer.ts';
