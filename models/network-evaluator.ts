import type { Evaluator } from '../agents/evaluator.ts';
import { type ObservationConfig, ObservationEncoder } from '../env/gym/observation.ts';
import type { Rules } from '../env/rules.ts';
import { MlpRunner, type MlpWeights, maskedSoftmax, NUM_ACTIONS } from './mlp-runner.ts';

/**
 * A policy-value network as a search's leaf evaluator: the observation
 * encoder and one batch-1 forward pass of the plain Float32Array runner. The
 * policy head gives the priors (softmax of logits / `temperature` over the
 * legal actions), the value head the value for the player to move.
 */
export class NetworkEvaluator implements Evaluator {
  readonly #encoder: ObservationEncoder;
  readonly #runner: MlpRunner;
  readonly #observation: Float32Array;
  readonly #logits = new Float32Array(NUM_ACTIONS);
  readonly #value = new Float32Array(1);
  readonly #mask = new Uint8Array(NUM_ACTIONS);
  readonly #temperature: number;
  evaluations = 0;

  constructor(weights: MlpWeights, observation: ObservationConfig, rules: Rules, temperature = 1) {
    this.#encoder = new ObservationEncoder(observation, rules);
    if (this.#encoder.size !== weights.inputSize) {
      throw new Error(
        `the network expects ${weights.inputSize} inputs but its observation encoding has ${this.#encoder.size}`,
      );
    }
    if (!(temperature > 0 && Number.isFinite(temperature))) {
      throw new RangeError(`prior temperature must be a positive number, got ${temperature}`);
    }
    this.#runner = new MlpRunner(weights);
    this.#observation = new Float32Array(this.#encoder.size);
    this.#temperature = temperature;
  }

  evaluate(state: Uint8Array, mask: number, priors: Float32Array): number {
    this.evaluations++;
    this.#encoder.encode(state, this.#observation, 0);
    this.#runner.forward(this.#observation, 1, this.#logits, this.#value);
    for (let a = 0; a < NUM_ACTIONS; a++) this.#mask[a] = (mask >> a) & 1;
    if (this.#temperature !== 1) {
      for (let a = 0; a < NUM_ACTIONS; a++) {
        this.#logits[a] = (this.#logits[a] as number) / this.#temperature;
      }
    }
    maskedSoftmax(this.#logits, 0, this.#mask, 0, priors, 0);
    return this.#value[0] as number;
  }

  /** The value head alone (the value for the player to move of an unfinished state). */
  value(state: Uint8Array): number {
    this.evaluations++;
    this.#encoder.encode(state, this.#observation, 0);
    this.#runner.forward(this.#observation, 1, this.#logits, this.#value);
    return this.#value[0] as number;
  }
}
