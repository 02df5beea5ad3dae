/** The `policy:PATH` agent as the command line makes it: from a file, on the inference backend. */
import type { ObservationConfig } from '../../env/gym/observation.ts';
import type { Rules } from '../../env/rules.ts';
import { inferenceEngine } from '../../models/inference/inference-engine.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import type { MlpWeights } from '../../models/mlp-runner.ts';
import { checkPolicyInput } from '../../models/policy-move.ts';
import type { Agent } from '../agent.ts';
import type { JobFiles } from '../agent-options.ts';
import { PolicyAgent } from './policy-agent.ts';
import { noteOtherRules } from './rules-note.ts';

/**
 * A policy agent whose forward pass runs on the process's inference backend
 * (models/inference/: onnxruntime-node where it loads, else the plain runner).
 */
export async function createPolicyAgent(
  name: string,
  weights: MlpWeights,
  observation: ObservationConfig,
  rules: Rules,
): Promise<PolicyAgent> {
  checkPolicyInput(weights, observation, name);
  const inference = await (await inferenceEngine()).create(weights, { batched: false });
  return new PolicyAgent(name, weights, observation, rules, inference.forward, () =>
    inference.dispose(),
  );
}

/**
 * Throws what loadPolicyAgent would (a missing, corrupt or unfitting policy)
 * without making the agent, and says so once if the game's rules are not the
 * ones the policy was trained under.
 */
export function checkPolicyAgent(path: string, rules: Rules, files?: JobFiles): void {
  const loaded = loadPolicy(path, files);
  checkPolicyInput(loaded.weights, loaded.observation, `policy:${path}`);
  noteOtherRules(`policy:${path}`, loaded.rules, rules);
}

/**
 * The `policy:PATH` agent (a checkpoint, a policy file or a folder holding
 * one), from a queue job's `files` where given.
 */
export async function loadPolicyAgent(
  path: string,
  rules: Rules,
  files?: JobFiles,
): Promise<Agent> {
  const loaded = loadPolicy(path, files);
  return createPolicyAgent(`policy:${path}`, loaded.weights, loaded.observation, rules);
}
