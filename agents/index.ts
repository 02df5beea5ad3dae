/**
 * The project's agents: baselines, search, external engines, the agents that
 * play with a trained network, and the spec parser. As the package's
 * `ayoayo/agents` entry it registers every kind, those that load a network
 * (`policy:PATH`, `az:...`, `minimax:...,eval=PATH`) included, so that
 * importing it is enough for createAgent to make any spec.
 */
import { registerNetworkKinds } from './network/kinds.ts';

registerNetworkKinds();

export { softmaxInto } from '../models/softmax.ts';
export type { Agent, AgentContext } from './agent.ts';
export { type ServeOptions, serveAgent } from './engine-server.ts';
export { CachedEvaluator } from './evaluation-cache.ts';
export { type Evaluator, StoreDifferenceEvaluator, uniformPriors } from './evaluator.ts';
export { DEFAULT_MOVE_TIMEOUT_MS, ExternalAgent, type ExternalAgentOptions } from './external.ts';
export { ForfeitError } from './forfeit.ts';
export { GreedyAgent } from './greedy.ts';
export { MctsAgent, type MctsAgentOptions } from './mcts.ts';
export { MinimaxAgent, type MinimaxAgentOptions } from './minimax.ts';
export {
  type LeafEvaluator,
  MAX_PLY,
  MinimaxSearch,
  type SearchLimits,
  type SearchOptions,
  type SearchResult,
  WIN,
} from './minimax-search.ts';
export { registerNetworkKinds } from './network/kinds.ts';
export { loadPolicyAgent } from './network/load-policy-agent.ts';
export { PolicyAgent } from './network/policy-agent.ts';
export { randomPlayout } from './playout.ts';
export { type EngineRequest, engineRequest, engineRequestSchema } from './protocol.ts';
export { PuctAgent, type PuctAgentOptions } from './puct/agent.ts';
export {
  consideredVisitSequence,
  type GumbelOptions,
  type GumbelResult,
  gumbelSearch,
} from './puct/gumbel.ts';
export {
  type PuctLimits,
  type PuctOptions,
  type PuctResult,
  PuctSearch,
  type RootChooser,
  type RootChooserSearch,
  type RootNoise,
  type RootView,
} from './puct/search.ts';
export { RandomAgent } from './random.ts';
export {
  type CompletedQOptions,
  completedQ,
  completedQPolicy,
  legalSoftmax,
  mixedValue,
  type RootStatistics,
  transformedCompletedQ,
  visitCountTargets,
} from './search-targets.ts';
export * from './spec.ts';
export { type SpecArgument, type SpecField, specArgument, specFields } from './spec-grammar.ts';
export {
  DURATION_FORMS,
  decimalOption,
  durationOption,
  integerIn,
  integerOption,
  isOption,
  optionKeys,
  parseDuration,
  parseSpecOptions,
  type SpecFields,
  type SpecOption,
  splitFields,
  switchOption,
} from './spec-options.ts';
