/**
 * A dependency-free forward pass of the policy-value MLP on plain Float32Arrays.
 * At batch 1 this is about ten times faster than any tfjs call, so agents, the
 * HTTP service and the browser use it; it also runs small batches for opponents
 * from the checkpoint pool during self-play. The forward pass needs nothing but
 * the weights, so it can be copied into any JavaScript client.
 */

import { core } from '../env/index.ts';
import { bytesToMask } from '../env/mask.ts';
import { softmaxInto } from './softmax.ts';

export type Activation = 'relu' | 'tanh' | 'linear';

export interface DenseWeights {
  readonly inputSize: number;
  readonly outputSize: number;
  readonly activation: Activation;
  /** Row-major [inputSize][outputSize], as tfjs Dense kernels are stored. */
  readonly kernel: Float32Array;
  readonly bias: Float32Array;
}

export interface MlpWeights {
  readonly inputSize: number;
  readonly hidden: readonly DenseWeights[];
  /** Produces the 6 action logits. */
  readonly policy: DenseWeights;
  /** Produces one value in [-1, 1] (tanh) from the mover's side. */
  readonly value: DenseWeights;
}

/** Whether two networks' weights are the same: shapes, activations and every float. */
export function sameWeights(a: MlpWeights, b: MlpWeights): boolean {
  if (a === b) return true;
  const layers = (w: MlpWeights): readonly DenseWeights[] => [...w.hidden, w.policy, w.value];
  const left = layers(a);
  const right = layers(b);
  return (
    a.inputSize === b.inputSize &&
    left.length === right.length &&
    left.every((layer, i) => {
      const other = right[i] as DenseWeights;
      return (
        layer.inputSize === other.inputSize &&
        layer.outputSize === other.outputSize &&
        layer.activation === other.activation &&
        sameFloats(layer.kernel, other.kernel) &&
        sameFloats(layer.bias, other.bias)
      );
    })
  );
}

/** Float by float, as bits: NaN equals NaN, -0 differs from 0 (a network's weights either way). */
function sameFloats(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  const x = new Int32Array(a.buffer, a.byteOffset, a.length);
  const y = new Int32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** The policy head's outputs: one logit per action of the game. */
export const NUM_ACTIONS = core.ACTIONS;

/** A dense layer with its kernel transposed to [outputSize][inputSize] for dot products. */
interface PreparedDense {
  readonly inputSize: number;
  readonly outputSize: number;
  readonly activation: Activation;
  readonly kernelT: Float32Array;
  readonly bias: Float32Array;
}

function prepare(layer: DenseWeights): PreparedDense {
  const { inputSize, outputSize, kernel } = layer;
  const kernelT = new Float32Array(inputSize * outputSize);
  for (let i = 0; i < inputSize; i++) {
    for (let j = 0; j < outputSize; j++)
      kernelT[j * inputSize + i] = kernel[i * outputSize + j] as number;
  }
  return { inputSize, outputSize, activation: layer.activation, kernelT, bias: layer.bias };
}

function applyDense(
  layer: PreparedDense,
  input: Float32Array,
  inOffset: number,
  out: Float32Array,
  outOffset: number,
): void {
  const { inputSize, outputSize, kernelT, bias, activation } = layer;
  // A local accumulator per output keeps the inner loop in registers, several
  // times faster in JS than accumulating into the output array.
  for (let j = 0; j < outputSize; j++) {
    const row = j * inputSize;
    let a0 = bias[j] as number;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    let i = 0;
    for (; i + 3 < inputSize; i += 4) {
      a0 += (input[inOffset + i] as number) * (kernelT[row + i] as number);
      a1 += (input[inOffset + i + 1] as number) * (kernelT[row + i + 1] as number);
      a2 += (input[inOffset + i + 2] as number) * (kernelT[row + i + 2] as number);
      a3 += (input[inOffset + i + 3] as number) * (kernelT[row + i + 3] as number);
    }
    for (; i < inputSize; i++) a0 += (input[inOffset + i] as number) * (kernelT[row + i] as number);
    const acc = a0 + a1 + a2 + a3;
    out[outOffset + j] =
      activation === 'relu' ? Math.max(acc, 0) : activation === 'tanh' ? Math.tanh(acc) : acc;
  }
}

/**
 * Writes the masked softmax of `logits` into `probs`, the mask one byte an
 * action (not 0: legal): illegal actions get exactly 0, and an all-zero mask
 * gives all zeros. With the legal actions as a bit mask, see agents/softmax.ts.
 */
export function maskedSoftmax(
  logits: Float32Array,
  logitsOffset: number,
  mask: ArrayLike<number>,
  maskOffset: number,
  probs: Float32Array,
  probsOffset: number,
): void {
  softmaxInto(logits, logitsOffset, bytesToMask(mask, maskOffset), probs, probsOffset);
}

/** Runs an MlpWeights network; scratch buffers are allocated once per runner. */
export class MlpRunner {
  readonly inputSize: number;
  private readonly widest: number;
  private a = new Float32Array(0);
  private b = new Float32Array(0);
  private capacity = 0;

  private readonly hidden: readonly PreparedDense[];
  private readonly policy: PreparedDense;
  private readonly value: PreparedDense;

  constructor(readonly weights: MlpWeights) {
    this.inputSize = weights.inputSize;
    this.hidden = weights.hidden.map(prepare);
    this.policy = prepare(weights.policy);
    this.value = prepare(weights.value);
    this.widest = Math.max(NUM_ACTIONS, 1, ...weights.hidden.map((h) => h.outputSize));
    this.ensure(1);
  }

  private ensure(batch: number): void {
    if (batch <= this.capacity) return;
    this.capacity = batch;
    this.a = new Float32Array(batch * this.widest);
    this.b = new Float32Array(batch * this.widest);
  }

  /**
   * Forward pass for `batch` observations laid out row by row in `observations`.
   * Writes 6 logits per row into `logits` and one value per row into `values`.
   */
  forward(
    observations: Float32Array,
    batch: number,
    logits: Float32Array,
    values: Float32Array,
  ): void {
    this.ensure(batch);
    const { hidden, policy, value } = this;
    const w = this.widest;
    for (let n = 0; n < batch; n++) {
      let source = observations;
      let sourceOffset = n * this.inputSize;
      let target = this.a;
      for (const layer of hidden) {
        applyDense(layer, source, sourceOffset, target, n * w);
        source = target;
        sourceOffset = n * w;
        target = target === this.a ? this.b : this.a;
      }
      applyDense(policy, source, sourceOffset, logits, n * NUM_ACTIONS);
      applyDense(value, source, sourceOffset, values, n);
    }
  }

  /** One observation: probabilities (masked softmax) and value. */
  evaluate(
    observation: Float32Array,
    mask: ArrayLike<number>,
  ): { probabilities: Float32Array; value: number; logits: Float32Array } {
    const logits = new Float32Array(NUM_ACTIONS);
    const values = new Float32Array(1);
    this.forward(observation, 1, logits, values);
    const probabilities = new Float32Array(NUM_ACTIONS);
    maskedSoftmax(logits, 0, mask, 0, probabilities, 0);
    return { probabilities, value: values[0] as number, logits };
  }
}

/**
 * Runs a batch of observations laid out row by row: writes 6 logits and one
 * value per row. The plain runner's, onnxruntime's and tfjs's all take this shape.
 */
export type ForwardPass = (
  observations: Float32Array,
  batch: number,
  logits: Float32Array,
  values: Float32Array,
) => void;

/** The plain runner's forward pass over `weights`. */
export function plainForward(weights: MlpWeights): ForwardPass {
  const runner = new MlpRunner(weights);
  return (observations, batch, logits, values) =>
    runner.forward(observations, batch, logits, values);
}

/** The legal action with the highest logit (lowest index on ties), or -1 if none is legal. */
export function argmaxLegal(
  logits: Float32Array,
  offset: number,
  mask: ArrayLike<number>,
  maskOffset = 0,
): number {
  let best = -1;
  let bestLogit = Number.NEGATIVE_INFINITY;
  for (let a = 0; a < NUM_ACTIONS; a++) {
    if (mask[maskOffset + a] && (logits[offset + a] as number) > bestLogit) {
      best = a;
      bestLogit = logits[offset + a] as number;
    }
  }
  return best;
}
