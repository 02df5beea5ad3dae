/**
 * Training: PPO self-play against an opponent pool, or expert iteration
 * (self-play searched with the network), checkpoints and metrics of a run,
 * the policy's evaluation against the baselines.
 */

/** A run folder in use by another process: train() throws it, naming the holder. */
export { FolderLockError } from '../eval/folder-lock.ts';
export {
  buildConfig,
  DEFAULT_CONFIG,
  PRESETS,
  parseTrainConfig,
  type TrainConfig,
  trainConfigSchema,
} from './config.ts';
export {
  RunFolderError,
  type RunFolderReason,
  TrainConfigError,
  TrainingDivergedError,
} from './errors.ts';
export { type EvaluationResult, type EvaluationRow, evaluatePolicy } from './evaluate.ts';
export { runPaths, type TrainOptions, type TrainResult, train } from './trainer.ts';
