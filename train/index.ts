/**
 * Training: PPO self-play against an opponent pool, or expert iteration
 * (self-play searched with the network), checkpoints and metrics of a run,
 * the policy's evaluation against the baselines.
 */
export {
  buildConfig,
  DEFAULT_CONFIG,
  PRESETS,
  parseTrainConfig,
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
