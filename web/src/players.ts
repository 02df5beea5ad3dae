/**
 * The page's computer opponents, both running in the browser: the exported
 * policy (plain Float32Array runner, observation computed by the project's own
 * engine) and alpha-beta minimax.
 */
import { MinimaxAgent } from '../../agents/minimax.ts';
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
  choose(position: Position): Choice;
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

/** Alpha-beta search to a fixed depth (agents/minimax.ts), ties broken by a seeded generator. */
export class MinimaxPlayer implements ComputerPlayer {
  readonly name: string;
  readonly #agent: MinimaxAgent;
  readonly #rng: Random;

  constructor(
    depth: number,
    readonly rules: Rules,
    seed: number,
  ) {
    this.name = `minimax:${depth}`;
    this.#agent = new MinimaxAgent({ rules, depth, ttBits: 16 });
    this.#rng = Random.fromSeed(seed);
  }

  choose(position: Position): Choice {
    const legal = legalActions(position, this.rules);
    const action = this.#agent.act(position, { legal, rng: this.#rng, rules: this.rules });
    return { action };
  }
}
