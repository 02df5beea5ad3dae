import type { Agent, AgentContext } from '../agents/agent.ts';
import type { ObservationConfig } from '../env/gym/observation.ts';
import type { Position } from '../env/position.ts';
import type { Rules } from '../env/rules.ts';
import { loadPolicy } from './load-policy.ts';
import type { MlpWeights } from './mlp-runner.ts';
import { PolicyMoveChooser } from './policy-move.ts';

/**
 * A trained policy playing alone: one forward pass per move (the plain
 * Float32Array runner, no tfjs), the most probable legal action, no search.
 */
export class PolicyAgent implements Agent {
  readonly #chooser: PolicyMoveChooser;

  constructor(
    readonly name: string,
    weights: MlpWeights,
    observation: ObservationConfig,
    private readonly rules: Rules,
  ) {
    this.#chooser = new PolicyMoveChooser(weights, observation, name);
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
}

/** The `policy:PATH` agent (a checkpoint, a policy file or a folder holding one). */
export async function loadPolicyAgent(path: string, rules: Rules): Promise<Agent> {
  const loaded = loadPolicy(path);
  return new PolicyAgent(`policy:${path}`, loaded.weights, loaded.observation, rules);
}
