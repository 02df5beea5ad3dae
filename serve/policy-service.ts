import type { PolicySearchResult } from '../agents/network/policy-search.ts';
import { UnservedRulesError } from '../agents/perfect-search.ts';
import type { Position, Rules } from '../env/index.ts';
import type { LoadedPolicy } from '../models/load-policy.ts';
import type { ForwardPass } from '../models/mlp-runner.ts';
import { PolicyMoveChooser } from '../models/policy-move.ts';
import { parseActRequest, RequestError } from './act-request.ts';

/**
 * What the search of the position found (services started with a search
 * only): PUCT's, or with solve=1 the exact solver's when it proved the
 * position (then `simulations` is 0).
 */
export interface SearchSummary {
  /** PUCT's simulations; 0 when the solver proved the position and PUCT did not run. */
  readonly simulations: number;
  /** Visits of each root action (0 for illegal ones; all 0 when the solver answered). */
  readonly visits: number[];
  /** Visits normalised over the legal actions (illegal exactly 0); 1 on the solver's move when it answered. */
  readonly policy: number[];
  /** Mean value of each action for the player to move (0 if never visited). */
  readonly q: number[];
  /** The search's value of the position for the player to move. */
  readonly value: number;
  /** True when the search (PUCT's tree or the solver) proved the game's result (then `value` is exact). */
  readonly solved: boolean;
}

/** The answer to `POST /act`. */
export interface ActResponse {
  /**
   * The chosen action (0..5 from the mover's side): the most probable legal
   * one, or with a search the search's best (most visited; ties to the
   * lowest), with solve=1 the solver's proven move when it proved the position.
   */
  readonly action: number;
  /** The board pit it lifts (0..11): the action, plus 6 for player 1. */
  readonly pit: number;
  /** Masked softmax over the 6 actions; illegal actions are exactly 0. */
  readonly probabilities: number[];
  /** The value head: expected result for the player to move, in [-1, 1]. */
  readonly value: number;
  /** The legal actions, ascending. */
  readonly legal: number[];
  /** With `explain`: the observation the network was given, for checking a client's encoder. */
  readonly observation?: number[];
  /** With a search: what it found (the network's own view stays in probabilities and value). */
  readonly search?: SearchSummary;
}

/**
 * A search the service answers with: PUCT over the policy (PolicySearch), or
 * the perfect player (PerfectSearch), in this thread; the `serve` command's
 * SearchThread runs either on a worker thread of its own.
 */
export interface MoveSearch {
  /** What `GET /health` calls it: `perfect`, or `az` and its settings. */
  readonly label: string;
  search(position: Position, rules: Rules): PolicySearchResult | Promise<PolicySearchResult>;
}

export interface ActOptions {
  /** Also return the observation (features in the manifest's order). */
  readonly explain?: boolean;
}

/**
 * Answers move requests with a trained policy: validates the request, encodes
 * the position with the policy's observation config (lookahead features
 * computed by the engine under the request's rules) and runs the network
 * (the plain Float32Array runner unless another forward pass is given: the
 * `serve` command gives the process's inference backend's). Given a search (PUCT with the same network,
 * with solve=1 the exact solver first), the move is the search's instead of the bare policy's.
 */
export class PolicyService {
  readonly #chooser: PolicyMoveChooser;

  constructor(
    readonly policy: LoadedPolicy,
    readonly search: MoveSearch | null = null,
    forward?: ForwardPass,
  ) {
    this.#chooser = new PolicyMoveChooser(policy.weights, policy.observation, policy.path, forward);
  }

  /**
   * Chooses a move for a request body (already parsed from JSON); rejects with
   * a RequestError. The network's answer is read before the search is awaited,
   * so requests answered at once never mix.
   */
  async act(body: unknown, options: ActOptions = {}): Promise<ActResponse> {
    const { position, rules } = parseActRequest(body, this.policy.rules);
    const action = this.#chooser.choose(position, rules);
    if (action < 0) throw new RequestError(400, 'no legal move in this position');
    const chooser = this.#chooser;
    const network = {
      probabilities: chooser.probabilities(),
      value: chooser.value,
      legal: [...chooser.mask.keys()].filter((a) => chooser.mask[a] === 1),
      ...(options.explain ? { observation: Array.from(chooser.observationVector) } : {}),
    };
    const found = await this.#searched(position, rules);
    const chosen = found === undefined ? action : found.action;
    return {
      action: chosen,
      pit: chosen + 6 * position.toMove,
      ...network,
      ...(found === undefined
        ? {}
        : {
            search: {
              simulations: found.simulations,
              visits: Array.from(found.visits),
              policy: Array.from(found.policy),
              q: Array.from(found.q),
              value: found.value,
              solved: found.solved,
            },
          }),
    };
  }

  /** The search's answer (none without a search); a position the perfect player refuses is a 422. */
  async #searched(position: Position, rules: Rules): Promise<PolicySearchResult | undefined> {
    if (this.search === null) return undefined;
    try {
      return await this.search.search(position, rules);
    } catch (error) {
      if (error instanceof UnservedRulesError) throw new RequestError(422, error.message);
      throw error;
    }
  }

  /** What `GET /health` reports about the policy. */
  describe() {
    const { source, observation, rules, weights, evaluation } = this.policy;
    return {
      ...source,
      observation: { ...observation, size: weights.inputSize },
      rules,
      ...(evaluation ? { evaluation } : {}),
      ...(this.search ? { search: this.search.label } : {}),
    };
  }
}
