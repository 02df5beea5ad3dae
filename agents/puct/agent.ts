import { core, outcome, type Position, type Rules, ruleCode } from '../../env/index.ts';
import type { Agent, AgentContext } from '../agent.ts';
import type { Evaluator } from '../evaluator.ts';
import { gumbelSearch } from './gumbel.ts';
import { type PuctLimits, type PuctOptions, type PuctResult, PuctSearch } from './search.ts';

export interface PuctAgentOptions extends PuctOptions, PuctLimits {
  readonly name: string;
  /** Called before each new game (e.g. to clear an evaluation cache). */
  readonly onNewGame?: () => void;
  /**
   * Choose moves by Gumbel MuZero's root search (gumbel.ts) with the
   * simulation budget, noise from the game's generator; needs `simulations`.
   */
  readonly gumbel?: boolean;
  /** Called when the agent is closed (e.g. to release the network's session). */
  readonly onClose?: () => void;
}

/**
 * Plays the action PUCT rates best (see PuctSearch), ties broken with the
 * game's generator, so the same seed gives the same move under a simulation
 * budget.
 */
export class PuctAgent implements Agent {
  readonly name: string;
  readonly #search: PuctSearch;
  readonly #evaluator: Evaluator;
  readonly #limits: PuctLimits;
  readonly #onNewGame: (() => void) | undefined;
  readonly #gumbel: boolean;
  readonly #onClose: (() => void) | undefined;
  /** The last search made (for benchmarks and analysis). */
  lastSearch: PuctResult | null = null;

  constructor(evaluator: Evaluator, options: PuctAgentOptions) {
    const { simulations, timeMs } = options;
    if ((simulations === undefined) === (timeMs === undefined)) {
      throw new RangeError('PUCT needs exactly one of simulations and timeMs');
    }
    if (timeMs !== undefined && !(timeMs > 0 && Number.isFinite(timeMs))) {
      throw new RangeError(`PUCT time must be a positive number of milliseconds, got ${timeMs}`);
    }
    if (options.gumbel === true && simulations === undefined) {
      throw new RangeError('Gumbel root search needs a number of simulations, not a time');
    }
    this.#limits = simulations !== undefined ? { simulations } : { timeMs: timeMs as number };
    this.#gumbel = options.gumbel === true;
    this.#search = new PuctSearch(evaluator, options);
    this.#evaluator = evaluator;
    this.#onNewGame = options.onNewGame;
    this.#onClose = options.onClose;
    this.name = options.name;
  }

  close(): void {
    this.#onClose?.();
  }

  newGame(): void {
    this.#search.reset();
    this.#onNewGame?.();
  }

  act(position: Position, ctx: AgentContext): number {
    if (ctx.legal.length === 1) return ctx.legal[0] as number;
    this.#search.useRules(ctx.rules);
    if (this.#gumbel) {
      const simulations = this.#limits.simulations as number;
      const found = gumbelSearch(this.#search, position.stateView, { simulations }, ctx.rng);
      this.lastSearch = found.search;
      return found.action;
    }
    const result = this.#search.search(position.stateView, this.#limits, ctx.rng);
    this.lastSearch = result;
    return ctx.rng.pick(result.bestActions);
  }

  /** The evaluator's value of the position (a network's value head), for its player to move. */
  estimateValue(position: Position, rules: Rules): number {
    const state = position.toState();
    const mask = core.legalMask(state, ruleCode(rules));
    if (mask === 0) {
      const end = outcome(position, rules);
      return end === null || end.winner === null ? 0 : end.winner === position.toMove ? 1 : -1;
    }
    const values = new Float64Array(1);
    this.#evaluator.evaluate(state, Uint8Array.of(mask), 1, new Float32Array(6), values);
    return values[0] as number;
  }
}
