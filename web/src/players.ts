/**
 * The page's computer opponents, all running in the browser: the exported
 * policy (plain Float32Array runner, observation computed by the project's own
 * engine) and any of the project's agents that needs no process or file.
 */
import type { Agent } from '../../agents/agent.ts';
import { legalActions, type Position, Random, type Rules } from '../../env/index.ts';
import type { BrowserPolicy } from '../../models/export/browser-policy.ts';
import { PolicyMoveChooser } from '../../models/policy-move.ts';

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
  readonly #chooser: PolicyMoveChooser;

  constructor(
    policy: BrowserPolicy,
    readonly rules: Rules,
  ) {
    this.#chooser = new PolicyMoveChooser(policy.weights, policy.observation, this.name);
  }

  choose(position: Position): Choice {
    const action = this.#chooser.choose(position, this.rules);
    return {
      action,
      probabilities: this.#chooser.probabilities(),
      value: this.#chooser.value,
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
