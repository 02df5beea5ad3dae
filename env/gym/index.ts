/**
 * The gym-style environment: import it from here (`env/gym/index.ts`).
 * docs/environment.md documents observations, rewards and views.
 */
export { AyoayoEnv, EpisodeStateError } from './ayoayo-env.ts';
export {
  type CheckableEnv,
  CheckEnvError,
  type CheckEnvOptions,
  type CheckEnvReport,
  checkEnv,
} from './check-env.ts';
export {
  DEFAULT_OBSERVATION,
  describeFeatures,
  ENCODINGS,
  type Encoding,
  type FeatureDescription,
  featureNames,
  LOOKAHEAD_FEATURES,
  type ObservationConfig,
  ObservationConfigError,
  type ObservationConfigInput,
  ObservationEncoder,
  observationConfigSchema,
  observationSize,
  resolveObservationConfig,
} from './observation.ts';
export {
  DEFAULT_MAX_PLIES,
  type EnvOptions,
  EnvOptionsError,
  type EnvOptionsInput,
  envOptionsSchema,
  type ResetOptionsInput,
  resetOptionsSchema,
  resolveEnvOptions,
} from './options.ts';
export {
  type LearnerSeat,
  type Opponent,
  SingleAgentEnv,
  type SingleAgentEnvOptions,
  type SingleAgentInfo,
} from './single-agent-env.ts';
export {
  actionSpace,
  type BoxSpace,
  type DiscreteSpace,
  firstOutside,
  observationSpace,
} from './spaces.ts';
export type {
  EpisodeOutcome,
  GymEnv,
  ResetArgs,
  ResetResult,
  StepInfo,
  StepResult,
} from './types.ts';
export {
  VectorActionError,
  VectorEnv,
  type VectorEnvOptionsInput,
  vectorEnvOptionsSchema,
} from './vector-env.ts';
