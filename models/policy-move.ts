/**
 * The policy's move choice, written once: encode the position from the mover's
 * side, mask the illegal actions, one forward pass (the plain Float32Array
 * runner unless another is given), the legal action with the highest logit. PolicyAgent, the HTTP
 * service and the browser page all choose through it, so they agree move for
 * move. Imports nothing from Node (the page bundles it).
 */
import {
  type ObservationConfig,
  ObservationEncoder,
  observationSize,
} from '../env/gym/observation.ts';
import { maskToBytes } from '../env/mask.ts';
import type { Position } from '../env/position.ts';
import { type Rules, rulesKey } from '../env/rules.ts';
import { PolicyFileError } from './errors.ts';
import {
  argmaxLegal,
  type ForwardPass,
  type MlpWeights,
  maskedSoftmax,
  NUM_ACTIONS,
  plainForward,
} from './mlp-runner.ts';

/**
 * The observation size of a policy, after checking that its weights take it;
 * a PolicyFileError naming the policy (`name`) when they do not.
 */
export function checkPolicyInput(
  weights: MlpWeights,
  observation: ObservationConfig,
  name: string,
): number {
  const size = observationSize(observation);
  if (size !== weights.inputSize) {
    throw new PolicyFileError(
      'incompatible',
      `policy ${name} takes ${weights.inputSize} inputs but its observation encoding has ${size}`,
    );
  }
  return size;
}

/** One policy's move chooser; its buffers are reused by every call. */
export class PolicyMoveChooser {
  /** After `choose`: 1 where the action is legal. */
  readonly mask = new Uint8Array(NUM_ACTIONS);
  /** After `choose`: the policy head's logits. */
  readonly logits = new Float32Array(NUM_ACTIONS);
  readonly #value = new Float32Array(1);
  /** After `choose`: the observation the network was given (features in the manifest's order). */
  readonly observationVector: Float32Array;
  readonly #forward: ForwardPass;
  // Lookahead features replay moves, so the encoder depends on the rules played.
  readonly #encoders = new Map<string, ObservationEncoder>();

  /**
   * Throws when the weights do not take the observation encoding's size
   * (`name` is in the message). `forward` runs the weights (default: the
   * plain runner; models/inference/ gives onnxruntime's where it runs).
   */
  constructor(
    weights: MlpWeights,
    readonly observation: ObservationConfig,
    name: string,
    forward?: ForwardPass,
  ) {
    const size = checkPolicyInput(weights, observation, name);
    this.#forward = forward ?? plainForward(weights);
    this.observationVector = new Float32Array(size);
  }

  /** The most probable legal action of `position` under `rules` (lowest on ties), or -1 if none is legal. */
  choose(position: Position, rules: Rules): number {
    const bits = this.#encoder(rules).encode(position.stateView, this.observationVector, 0);
    maskToBytes(bits, this.mask);
    this.#forward(this.observationVector, 1, this.logits, this.#value);
    return argmaxLegal(this.logits, 0, this.mask);
  }

  /** The value head's estimate after `choose`, for the player to move, in [-1, 1]. */
  get value(): number {
    return this.#value[0] as number;
  }

  /** The masked softmax after `choose`: illegal actions exactly 0. */
  probabilities(): number[] {
    const probabilities = new Float32Array(NUM_ACTIONS);
    maskedSoftmax(this.logits, 0, this.mask, 0, probabilities, 0);
    return Array.from(probabilities);
  }

  #encoder(rules: Rules): ObservationEncoder {
    const key = rulesKey(rules);
    let encoder = this.#encoders.get(key);
    if (encoder === undefined) {
      encoder = new ObservationEncoder(this.observation, rules);
      this.#encoders.set(key, encoder);
    }
    return encoder;
  }
}
