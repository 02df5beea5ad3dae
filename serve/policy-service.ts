import { ObservationEncoder } from '../env/gym/observation.ts';
import type { Rules } from '../env/index.ts';
import type { LoadedPolicy } from '../models/load-policy.ts';
import { argmaxLegal, MlpRunner, maskedSoftmax, NUM_ACTIONS } from '../models/mlp-runner.ts';
import { parseActRequest, RequestError } from './act-request.ts';

/** The answer to `POST /act`. */
export interface ActResponse {
  /** The chosen action (0..5 from the mover's side): the most probable legal one. */
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
}

export interface ActOptions {
  /** Also return the observation (features in the manifest's order). */
  readonly explain?: boolean;
}

/**
 * Answers move requests with a trained policy: validates the request, encodes
 * the position with the policy's observation config (lookahead features
 * computed by the engine under the request's rules) and runs the plain
 * Float32Array runner.
 */
export class PolicyService {
  readonly #runner: MlpRunner;
  readonly #encoders = new Map<string, ObservationEncoder>();
  readonly #observation: Float32Array;
  readonly #logits = new Float32Array(NUM_ACTIONS);
  readonly #value = new Float32Array(1);
  readonly #mask = new Uint8Array(NUM_ACTIONS);

  constructor(readonly policy: LoadedPolicy) {
    const encoder = this.#encoder(policy.rules);
    if (encoder.size !== policy.weights.inputSize) {
      throw new Error(
        `policy ${policy.path} takes ${policy.weights.inputSize} inputs but its observation encoding has ${encoder.size}`,
      );
    }
    this.#runner = new MlpRunner(policy.weights);
    this.#observation = new Float32Array(encoder.size);
  }

  #encoder(rules: Rules): ObservationEncoder {
    const key = `${rules.captureSeedStays}/${rules.leftoverTo}`;
    let encoder = this.#encoders.get(key);
    if (encoder === undefined) {
      encoder = new ObservationEncoder(this.policy.observation, rules);
      this.#encoders.set(key, encoder);
    }
    return encoder;
  }

  /** Chooses a move for a request body (already parsed from JSON); throws RequestError. */
  act(body: unknown, options: ActOptions = {}): ActResponse {
    const { position, rules } = parseActRequest(body, this.policy.rules);
    const bits = this.#encoder(rules).encode(position.toState(), this.#observation, 0);
    if (bits === 0) throw new RequestError(400, 'no legal move in this position');
    const legal: number[] = [];
    for (let a = 0; a < NUM_ACTIONS; a++) {
      this.#mask[a] = (bits >> a) & 1;
      if (this.#mask[a]) legal.push(a);
    }
    this.#runner.forward(this.#observation, 1, this.#logits, this.#value);
    const probabilities = new Float32Array(NUM_ACTIONS);
    maskedSoftmax(this.#logits, 0, this.#mask, 0, probabilities, 0);
    const action = argmaxLegal(this.#logits, 0, this.#mask);
    return {
      action,
      pit: action + 6 * position.toMove,
      probabilities: Array.from(probabilities),
      value: this.#value[0] as number,
      legal,
      ...(options.explain ? { observation: Array.from(this.#observation) } : {}),
    };
  }

  /** What `GET /health` reports about the policy. */
  describe() {
    const { source, observation, rules, weights, evaluation } = this.policy;
    return {
      ...source,
      observation: { ...observation, size: weights.inputSize },
      rules,
      ...(evaluation ? { evaluation } : {}),
    };
  }
}
