/**
 * The page's computer opponents, all running in the browser: any of the
 * project's agents that needs no process or file (made by the page's
 * registry of agent kinds, opponents.ts), each with a seeded generator; the
 * exported policy says why it chose its move.
 */
import type { Agent } from '../../agents/agent.ts';
import { PolicyAgent } from '../../agents/network/policy-agent.ts';
import { legalActions, type Position, Random, type Rules } from '../../env/index.ts';

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

/** One of the project's agents, with a seeded generator for its ties and playouts. */
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
    const { agent } = this;
    return agent instanceof PolicyAgent
      ? { action, probabilities: agent.lastProbabilities(), value: agent.lastValue() }
      : { action };
  }
}
