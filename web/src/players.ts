/**
 * The page's computer opponents, all running in the browser: the exported
 * policy (plain Float32Array runner, observation computed by the project's own
 * engine) and any of the project's agents that needs no process or file.
 */
import type { Agent } from '../../agents/agent.ts';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import { legalActions, type Position, Random, type Rules } from '../../env/index.ts';
import type { BrowserPolicy } from '../../models/export/browser-policy.ts';
import { argmaxLegal, MlpRunner, maskedSoftmax, NUM_ACTIONS } from '../../models/mlp-runner.ts';

/** What a computer player chose, and (for the policy) why. */
export interface Choice {
  readonly action: number;
  /** Policy only: the masked probabilities and the value for the player to move. */
  readonly probabilities?: readonly number[];
  readonly value?: number;
}

export interface ComputerPlayer {
  readonly name: string;
  choose(position: Position): Choice | Promise<Choice>;
}

/** The exported policy: the most probable legal action, as `ayoayo serve` and PolicyAgent play. */
export class PolicyPlayer implements ComputerPlayer {
  readonly name = 'policy';
  readonly #encoder: ObservationEncoder;
  readonly #runner: MlpRunner;
  readonly #observation: Float32Array;

  constructor(policy: BrowserPolicy, rules: Rules) {
    this.#encoder = new ObservationEncoder(policy.observation, rules);
    this.#runner = new MlpRunner(policy.weights);
    this.#observation = new Float32Array(this.#encoder.size);
  }

  choose(position: Position): Choice {
    const bits = this.#encoder.encode(position.toState(), this.#observation, 0);
    const mask = Array.from({ length: NUM_ACTIONS }, (_, a) => (bits >> a) & 1);
    const logits = new Float32Array(NUM_ACTIONS);
    const value = new Float32Array(1);
    this.#runner.forward(this.#observation, 1, logits, value);
    const probabilities = new Float32Array(NUM_ACTIONS);
    maskedSoftmax(logits, 0, mask, 0, probabilities, 0);
    return {
      action: argmaxLegal(logits, 0, mask),
      probabilities: Array.from(probabilities),
      value: value[0] as number,
    };
  }
}

/** One of the project's agents (random, greedy, minimax, mcts), with a seeded generator for its ties and playouts. */
export class AgentPlayer implements ComputerPlayer {
  readonly name: string;
  readonly #rng: Random;

  constructor(
    readonly agent: Agent,
    readonly rules: Rules,
    seed: number,
  ) {
    this.name = agent.name;
    this.#rng = Random.fromSeed(seed);
  }

  async choose(position: Position): Promise<Choice> {
    const legal = legalActions(position, this.rules);
    const action = await this.agent.act(position, { legal, rng: this.#rng, rules: this.rules });
    return { action };
  }
}
