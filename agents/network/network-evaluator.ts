import { type ObservationConfig, ObservationEncoder } from '../../env/gym/observation.ts';
import { core } from '../../env/index.ts';
import type { Rules } from '../../env/rules.ts';
import { PolicyFileError } from '../../models/errors.ts';
import {
  type ForwardPass,
  type MlpWeights,
  NUM_ACTIONS,
  plainForward,
} from '../../models/mlp-runner.ts';
import { softmaxInto } from '../../models/softmax.ts';
import type { Evaluator } from '../evaluator.ts';

export type { ForwardPass };

const { STATE_SIZE } = core;

/**
 * The observation encoder for a network under `rules`; a PolicyFileError when
 * the network's input size is not the encoding's (a policy file whose
 * observation settings do not match its weights).
 */
export function encoderFor(
  weights: MlpWeights,
  observation: ObservationConfig,
  rules: Rules,
): ObservationEncoder {
  const encoder = new ObservationEncoder(observation, rules);
  if (encoder.size !== weights.inputSize) {
    throw new PolicyFileError(
      'incompatible',
      `the network expects ${weights.inputSize} inputs but its observation encoding has ${encoder.size}`,
    );
  }
  return encoder;
}

/**
 * A policy-value network as a search's leaf evaluator: the observation
 * encoder, then one forward pass for the batch. The policy head gives the
 * priors (softmax of logits / `temperature` over the legal actions), the value
 * head the value for the player to move. The forward pass is the plain
 * Float32Array runner unless another is given (models/inference/).
 */
export class NetworkEvaluator implements Evaluator {
  readonly #encoder: ObservationEncoder;
  readonly #forward: ForwardPass;
  readonly #temperature: number;
  #observations = new Float32Array(0);
  #logits = new Float32Array(0);
  #values = new Float32Array(0);
  // Views of the rows of the last states buffer evaluated: searches hand the same one every call.
  #viewsOf: Uint8Array | null = null;
  #views: Uint8Array[] = [];
  /** Positions evaluated (for benchmarks). */
  evaluations = 0;

  constructor(
    weights: MlpWeights,
    observation: ObservationConfig,
    rules: Rules,
    options: { readonly temperature?: number; readonly forward?: ForwardPass } = {},
  ) {
    this.#encoder = encoderFor(weights, observation, rules);
    const temperature = options.temperature ?? 1;
    if (!(temperature > 0 && Number.isFinite(temperature))) {
      throw new RangeError(`prior temperature must be a positive number, got ${temperature}`);
    }
    this.#temperature = temperature;
    this.#forward = options.forward ?? plainForward(weights);
  }

  evaluate(
    states: Uint8Array,
    masks: Uint8Array,
    count: number,
    priors: Float32Array,
    values: Float64Array,
  ): void {
    this.evaluations += count;
    const size = this.#encoder.size;
    if (this.#values.length < count) {
      this.#observations = new Float32Array(count * size);
      this.#logits = new Float32Array(count * NUM_ACTIONS);
      this.#values = new Float32Array(count);
    }
    for (let i = 0; i < count; i++) {
      this.#encoder.encode(this.#stateView(states, i), this.#observations, i * size);
    }
    this.#forward(this.#observations, count, this.#logits, this.#values);
    const logits = this.#logits;
    for (let i = 0; i < count; i++) {
      const at = i * NUM_ACTIONS;
      if (this.#temperature !== 1) {
        for (let a = 0; a < NUM_ACTIONS; a++) {
          logits[at + a] = (logits[at + a] as number) / this.#temperature;
        }
      }
      softmaxInto(logits, at, masks[i] as number, priors, at);
      values[i] = this.#values[i] as number;
    }
  }

  #stateView(states: Uint8Array, i: number): Uint8Array {
    if (states !== this.#viewsOf) {
      this.#viewsOf = states;
      this.#views = [];
    }
    let view = this.#views[i];
    if (view === undefined) {
      view = states.subarray(i * STATE_SIZE, (i + 1) * STATE_SIZE);
      this.#views[i] = view;
    }
    return view;
  }
}
