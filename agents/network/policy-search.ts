import type { Position } from '../../env/position.ts';
import { type Rules, rulesKey, sameRules } from '../../env/rules.ts';
import { NetworkSpecError } from '../../models/errors.ts';
import type { NetworkInference } from '../../models/inference/inference-engine.ts';
import type { LoadedPolicy } from '../../models/load-policy.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { solvingAgentEndgame } from '../../solve/endgame/cache/shared-tables.ts';
import type { EndgameValues } from '../../solve/index.ts';
import type { SolverShare } from '../agent-kinds.ts';
import { type PuctLimits, PuctSearch } from '../puct/search.ts';
import { readSolveOption } from '../solver-backed.ts';
import { PositionProver } from '../solving-agent.ts';
import { specArgument } from '../spec-grammar.ts';
import { fieldOptions, parseSpecOptions } from '../spec-options.ts';
import { azLimits, evaluatorWith, puctOptions } from './az-agent.ts';
import { type AzOptions, azOptionsSchema } from './grammar.ts';
import { networkInference } from './search-agents.ts';

/** `ayoayo serve --search`'s options: an `az:` spec's, and with solve=1 how its time is shared. */
export interface AzSearchOptions {
  readonly options: AzOptions;
  /** With solve=1, the solver's and the search's shares of t (agents/solver-backed.ts); else null. */
  readonly solver: SolverShare | null;
}

/**
 * Parses the options of an `az:` spec without its path (`sims=200,c=1`; empty:
 * the defaults), solve= included, as the registry reads them (the az kind's
 * schema, agents/solver-backed.ts's solve=), for `ayoayo serve --search`.
 * Bad options throw a NetworkSpecError naming them, with `what` as the thing
 * that was invalid.
 */
export function parseAzOptions(text: string, what: string): AzSearchOptions {
  const fail = (why: string) => new NetworkSpecError(`invalid ${what}: ${why}`);
  const { rest, solver } = readSolveOption(specArgument(text), fail);
  const { bare, options } = fieldOptions(rest?.fields ?? [], fail);
  const stray = bare.filter((field) => field.length > 0);
  if (stray.length > 0) {
    throw fail(`'${stray.join(',')}' is not key=value; e.g. sims=200 or t=50ms,c=1.5`);
  }
  return { options: parseSpecOptions(azOptionsSchema, options, fail), solver };
}

/** A service's search options, checked: an `az:` spec's, as parseAzOptions reads them, and their description. */
export interface PolicySearchSettings extends AzSearchOptions {
  /** What the start line and `GET /health` call them, e.g. `sims=200,c=1.5,prior=...,batch=16`. */
  readonly description: string;
  /** The longest a search may take by its options (t), in milliseconds; null: a simulation budget. */
  readonly timeMs: number | null;
}

/**
 * Parses and checks a service's search options (parseAzOptions; gumbel=1 is
 * refused: the service searches by PUCT), without loading anything.
 */
export function parsePolicySearchOptions(text: string, what: string): PolicySearchSettings {
  const { options: o, solver } = parseAzOptions(text, what);
  if (o.gumbel) {
    throw new NetworkSpecError(
      `invalid ${what}: gumbel=1 is for agents; the service searches by PUCT`,
    );
  }
  const limits = azLimits(o);
  const description = [
    'timeMs' in limits ? `t=${limits.timeMs}ms` : `sims=${limits.simulations}`,
    `c=${o.c}`,
    `prior=${o.prior}`,
    `temp=${o.temp}`,
    `cache=${o.cache}`,
    `batch=${o.batch}`,
    ...(solver !== null ? ['solve=1'] : []),
  ].join(',');
  return { options: o, solver, description, timeMs: limits.timeMs ?? null };
}

/** What a PolicySearch found for a position: PUCT's search, or the solver's proof. */
export interface PolicySearchResult {
  /** The move: the search's best (most visited, ties to the lowest action), or the proven one. */
  readonly action: number;
  /** PUCT's simulations (0 when the solver proved the position and PUCT did not run). */
  readonly simulations: number;
  /** Visits of each root action (all 0 when the solver answered). */
  readonly visits: Float64Array;
  /** Visits normalised over the legal actions; when the solver answered, 1 on its move. */
  readonly policy: Float64Array;
  /** Mean value of each root action for the player to move (0 if never visited). */
  readonly q: Float64Array;
  /** The position's value for the player to move: exact when `solved`. */
  readonly value: number;
  /** True when the game's result from the position is proven (by PUCT's tree or the solver). */
  readonly solved: boolean;
}

/** A result where no search ran: the move an exact answer chose, 1 in the policy, no visits. */
export function exactResult(action: number, value: number, solved: boolean): PolicySearchResult {
  const policy = new Float64Array(NUM_ACTIONS);
  policy[action] = 1;
  return {
    action,
    simulations: 0,
    visits: new Float64Array(NUM_ACTIONS),
    policy,
    q: new Float64Array(NUM_ACTIONS),
    value,
    solved,
  };
}

export interface PolicySearchOptions {
  /**
   * With solve=1: the endgame table its solver reads under the policy's rules,
   * loaded once at creation (default: solvingAgentEndgame's, as the
   * `az:...,solve=1` agent reads; null: none). Positions under other rules
   * are solved without one, so that no request builds a table.
   */
  readonly endgame?: (rules: Rules) => EndgameValues | null;
}

/**
 * One PUCT search a position, with a loaded policy and `az:` options, for
 * answering independent requests (the HTTP service): no tree kept from one
 * position to the next (the evaluation cache is, being exact), and ties
 * between equally good moves go to the lowest action, so the answer is a
 * function of the position and rules under a simulation budget. The network's
 * lookahead features depend on the rules, so each rule set gets its own
 * evaluator (sharing the forward pass).
 *
 * With solve=1 (which needs t) the exact solver first gets its share of the
 * time (SOLVE_SHARE), as in the `az:...,solve=1` agent: when it proves the
 * position, the answer is a move that keeps the proven value (a won
 * position's from a fresh shallowest proof, see PositionProver; else the
 * lowest such action) and PUCT does not run; otherwise PUCT gets the rest of
 * the time. Its proof table is cleared for each position, so that which
 * proven move is answered depends on the request alone.
 */
export class PolicySearch {
  readonly #searches = new Map<string, PuctSearch>();
  readonly #provers = new Map<string, PositionProver>();
  readonly #limits: PuctLimits;
  readonly #endgame: EndgameValues | null;

  /** What `GET /health` calls it (serve's MoveSearch). */
  get label(): string {
    return `az ${this.description}`;
  }

  private constructor(
    readonly policy: LoadedPolicy,
    readonly options: AzOptions,
    /** With solve=1, how the solver and PUCT share t; else null. */
    readonly solver: SolverShare | null,
    readonly description: string,
    readonly inference: NetworkInference,
    endgame: EndgameValues | null,
  ) {
    this.#limits = solver !== null ? { timeMs: solver.searchMs } : azLimits(options);
    this.#endgame = endgame;
  }

  /** Parses `options` (as parsePolicySearchOptions) and prepares the forward pass (and with solve=1 the endgame table). */
  static async create(
    policy: LoadedPolicy,
    options: string,
    what: string,
    { endgame = solvingAgentEndgame }: PolicySearchOptions = {},
  ): Promise<PolicySearch> {
    const { options: o, solver, description } = parsePolicySearchOptions(options, what);
    const table = solver !== null ? endgame(policy.rules) : null;
    const inference = await networkInference(policy, o.batch > 1);
    return new PolicySearch(policy, o, solver, description, inference, table);
  }

  /** Searches an unfinished position under `rules` (with solve=1, the solver first). */
  search(position: Position, rules: Rules): PolicySearchResult {
    const key = rulesKey(rules);
    if (this.solver !== null) {
      const proven = this.#prover(key, rules, this.solver.solveMs).prove(position, rules);
      if (proven !== null) {
        return exactResult(proven.progress ?? (proven.moves[0] as number), proven.value, true);
      }
    }
    let search = this.#searches.get(key);
    if (search === undefined) {
      const evaluator = evaluatorWith(this.policy, rules, this.options, this.inference.forward);
      search = new PuctSearch(evaluator, puctOptions(this.options, rules));
      this.#searches.set(key, search);
    }
    const found = search.search(position.stateView, this.#limits);
    return { ...found, action: found.bestActions[0] as number };
  }

  /** The solver for `rules`, its table cleared (see the class). */
  #prover(key: string, rules: Rules, solveMs: number): PositionProver {
    let prover = this.#provers.get(key);
    if (prover === undefined) {
      const own = sameRules(rules, this.policy.rules);
      prover = new PositionProver({
        name: `--search ${this.description}`,
        rules,
        solveMs,
        endgame: own ? this.#endgame : null,
      });
      this.#provers.set(key, prover);
    }
    prover.clear();
    return prover;
  }
}
