import type { Rules } from '../../env/rules.ts';
import { NetworkSpecError } from '../../models/errors.ts';
import { inferenceEngine, type NetworkInference } from '../../models/inference/inference-engine.ts';
import { type LoadedPolicy, loadPolicy } from '../../models/load-policy.ts';
import type { Agent } from '../agent.ts';
import type { JobFiles } from '../agent-options.ts';
import { MinimaxAgent } from '../minimax.ts';
import { azAgent, cached } from './az-agent.ts';
import type { AzSpec, MinimaxEvalSpec } from './grammar.ts';
import { encoderFor, NetworkEvaluator } from './network-evaluator.ts';
import { NetworkLeafEvaluator } from './network-leaf.ts';

export { NetworkSpecError };

/**
 * Loads (and so validates) a network search's policy and checks that the
 * network's input fits its observation encoding under `rules`: all that can
 * go wrong after the spec parsed, before the agent exists (no tfjs backend,
 * no tensors).
 */
export function loadSearchPolicy(path: string, rules: Rules, files?: JobFiles): LoadedPolicy {
  const loaded = loadPolicy(path, files);
  encoderFor(loaded.weights, loaded.observation, rules);
  return loaded;
}

/** `az:...`: PUCT with the network's priors and value, on the process's inference backend. */
export async function createAzAgent(
  name: string,
  spec: AzSpec,
  rules: Rules,
  files?: JobFiles,
): Promise<Agent> {
  const o = spec.options;
  const loaded = loadSearchPolicy(spec.path, rules, files);
  // Gumbel root search evaluates one leaf at a time.
  const inference = await networkInference(loaded, o.batch > 1 && !o.gumbel);
  return azAgent(name, loaded, o, rules, inference.forward, () => inference.dispose());
}

/**
 * `minimax:...,eval=PATH`: alpha-beta with the store difference plus k times
 * the network's value at the horizon.
 */
export async function createMinimaxEvalAgent(
  name: string,
  o: MinimaxEvalSpec,
  rules: Rules,
  files?: JobFiles,
): Promise<Agent> {
  const loaded = loadSearchPolicy(o.eval, rules, files);
  const inference = await networkInference(loaded, false);
  const network = new NetworkEvaluator(loaded.weights, loaded.observation, rules, {
    forward: inference.forward,
  });
  return new MinimaxAgent({
    name,
    rules,
    leaf: new NetworkLeafEvaluator(cached(network, o.cache), o.k, rules),
    ...(o.depth !== undefined ? { depth: o.depth } : { timeMs: o.t as number }),
    onClose: () => inference.dispose(),
  });
}

/**
 * The forward pass of a network search on the process's inference backend
 * (models/inference/): onnxruntime-node where it loads; else batches through
 * tfjs (7x more simulations a second than the plain runner at 16:
 * bench/network-search.bench.ts) and single leaves through the plain runner.
 */
export async function networkInference(
  loaded: LoadedPolicy,
  batched: boolean,
): Promise<NetworkInference> {
  return (await inferenceEngine()).create(loaded.weights, { batched });
}

/**
 * The evaluator of the policy at `path`, for play under `rules`, on the
 * process's inference backend (`batched`: see CreateInferenceOptions).
 */
export async function networkEvaluator(
  path: string,
  rules: Rules,
  temperature: number,
  batched: boolean,
): Promise<NetworkEvaluator> {
  const loaded = loadPolicy(path);
  const inference = await networkInference(loaded, batched);
  return new NetworkEvaluator(loaded.weights, loaded.observation, rules, {
    temperature,
    forward: inference.forward,
  });
}
