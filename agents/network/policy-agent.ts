import type { ObservationConfig } from '../../env/gym/observation.ts';
import type { Position } from '../../env/position.ts';
import type { Rules } from '../../env/rules.ts';
import type { ForwardPass, MlpWeights } from '../../models/mlp-runner.ts';
import { PolicyMoveChooser } from '../../models/policy-move.ts';
import type { Agent, AgentContext } from '../agent.ts';

/**
 * A trained policy playing alone: one forward pass per move (the plain
 * Float32Array runner unless another is given: the command line's runs on
 * its inference backend, load-policy-agent.ts), the most probable legal
 * action, no search. No Node built-in: the browser page's policy opponent
 * is one.
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

  /** The policy's probabilities of the last position's actions (illegal ones 0). */
  lastProbabilities(): number[] {
    return this.#chooser.probabilities();
  }

  close(): void {
    this.onClose?.();
  }
}
