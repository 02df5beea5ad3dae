import type { Agent, AgentContext } from '../agents/agent.ts';
import type { ObservationConfig } from '../env/gym/observation.ts';
import { ObservationEncoder } from '../env/gym/observation.ts';
import type { Position } from '../env/position.ts';
import type { Rules } from '../env/rules.ts';
import { loadPolicy } from './load-policy.ts';
import { argmaxLegal, MlpRunner, type MlpWeights, NUM_ACTIONS } from './mlp-runner.ts';

/**
 * A trained policy playing alone: one forward pass per move (the plain
 * Float32Array runner, no tfjs), the most probable legal action, no search.
 */
export class PolicyAgent implements Agent {
  private readonly runner: MlpRunner;
  private readonly encoder: ObservationEncoder;
  private readonly observation: Float32Array;
  private readonly logits = new Float32Array(NUM_ACTIONS);
  private readonly value = new Float32Array(1);
  private readonly mask = new Uint8Array(NUM_ACTIONS);

  constructor(
    readonly name: string,
    weights: MlpWeights,
    observation: ObservationConfig,
    rules: Rules,
  ) {
    this.encoder = new ObservationEncoder(observation, rules);
    if (this.encoder.size !== weights.inputSize) {
      throw new Error(
        `policy ${name} expects ${weights.inputSize} inputs but its observation encoding has ${this.encoder.size}`,
      );
    }
    this.runner = new MlpRunner(weights);
    this.observation = new Float32Array(this.encoder.size);
  }

  /** Probabilities are not needed to pick the argmax, so only logits are computed. */
  act(position: Position, ctx: AgentContext): number {
    const bits = this.encoder.encode(position.stateView, this.observation, 0);
    for (let a = 0; a < NUM_ACTIONS; a++) this.mask[a] = (bits >> a) & 1;
    this.runner.forward(this.observation, 1, this.logits, this.value);
    const action = argmaxLegal(this.logits, 0, this.mask);
    return action >= 0 ? action : (ctx.legal[0] as number);
  }

  /** The value head's estimate for the player to move, in [-1, 1]. */
  lastValue(): number {
    return this.value[0] as number;
  }
}

/** The `policy:PATH` agent (a checkpoint, a policy file or a folder holding one). */
export async function loadPolicyAgent(path: string, rules: Rules): Promise<Agent> {
  const loaded = loadPolicy(path);
  return new PolicyAgent(`policy:${path}`, loaded.weights, loaded.observation, rules);
}
