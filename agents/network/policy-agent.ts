import type { ObservationConfig } from '../../env/gym/observation.ts';
import type { Position } from '../../env/position.ts';
import type { Rules } from '../../env/rules.ts';
import { inferenceEngine } from '../../models/inference/inference-engine.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import type { ForwardPass, MlpWeights } from '../../models/mlp-runner.ts';
import { checkPolicyInput, PolicyMoveChooser } from '../../models/policy-move.ts';
import type { Agent, AgentContext } from '../agent.ts';
import type { JobFiles } from '../agent-options.ts';
import { noteOtherRules } from './rules-note.ts';

/**
 * A trained policy playing alone: one forward pass per move (the plain
 * Float32Array runner unless another is given), the most probable legal
 * action, no search.
 */
export class PolicyAgent implements Agent {
  readonly #chooser: PolicyMoveChooser;

  constructor(
    readonly name: string,
    weights: MlpWeights,
    observation: ObservationConfig,
    private readonly rules: Rules,
    forward?: ForwardPass,
    private readonly onClose?: () => void,
  ) {
    this.#chooser = new PolicyMoveChooser(weights, observation, name, forward);
  }

  act(position: Position, ctx: AgentContext): number {
    const action = this.#chooser.choose(position, this.rules);
    return action >= 0 ? action : (ctx.legal[0] as number);
  }

  /** The value head's estimate of the position for the player to move, in [-1, 1]. */
  estimateValue(position: Position, rules: Rules): number {
    this.#chooser.choose(position, rules);
    return this.#chooser.value;
  }

  /** The value head's estimate for the player to move, in [-1, 1]. */
  lastValue(): number {
    return this.#chooser.value;
  }

  close(): void {
    this.onClose?.();
  }
}

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
