import type * as tfType from '@tensorflow/tfjs';
import type { Tf } from './backend.ts';
import type { DenseWeights, MlpWeights } from './mlp-runner.ts';

interface DenseTensors {
  readonly kernel: tfType.Tensor2D;
  readonly bias: tfType.Tensor1D;
  readonly activation: DenseWeights['activation'];
}

/**
 * The network's forward pass through tfjs (wasm backend, SIMD), the fallback
 * for batches where onnxruntime-node is not installed: about 10x cheaper per
 * position than the plain runner at batches of 16-64, slower at batch 1
 * (bench/network-search.bench.ts). Plain tensor ops rather than a LayersModel:
 * less overhead per call, and the same floats as the LayersModel's predict.
 * Holds its weights as tensors until `dispose`.
 */
export class TfjsForward {
  readonly #hidden: readonly DenseTensors[];
  readonly #policy: DenseTensors;
  readonly #value: DenseTensors;
  readonly #inputSize: number;

  constructor(
    private readonly tf: Tf,
    weights: MlpWeights,
  ) {
    const layer = (d: DenseWeights): DenseTensors => ({
      kernel: tf.tensor2d(d.kernel, [d.inputSize, d.outputSize]),
      bias: tf.tensor1d(d.bias),
      activation: d.activation,
    });
    this.#hidden = weights.hidden.map(layer);
    this.#policy = layer(weights.policy);
    this.#value = layer(weights.value);
    this.#inputSize = weights.inputSize;
  }

  /** Writes 6 logits and one value per row of `observations` (the plain runner's contract). */
  forward(observations: Float32Array, batch: number, logits: Float32Array, values: Float32Array) {
    const { tf } = this;
    // As a Dense layer computes it (tfjs-layers' Dense.call), for the same
    // floats as predict: ReLU and linear layers as one fused product with the
    // bias; tanh layers as a product, then the bias, then tanh.
    const apply = (x: tfType.Tensor2D, l: DenseTensors): tfType.Tensor2D => {
      if (l.activation === 'tanh')
        return tf.tanh(tf.add(tf.matMul(x, l.kernel), l.bias)) as tfType.Tensor2D;
      const activation = l.activation === 'relu' ? 'relu' : 'linear';
      return tf.fused.matMul({ a: x, b: l.kernel, bias: l.bias, activation }) as tfType.Tensor2D;
    };
    const size = this.#inputSize;
    const [l, v] = tf.tidy(() => {
      let x = tf.tensor2d(observations.subarray(0, batch * size), [batch, size]);
      for (const h of this.#hidden) x = apply(x, h);
      return [apply(x, this.#policy), apply(x, this.#value)];
    }) as [tfType.Tensor, tfType.Tensor];
    logits.set(l.dataSync() as Float32Array);
    values.set(v.dataSync() as Float32Array);
    l.dispose();
    v.dispose();
  }

  /** Frees the weight tensors. */
  dispose(): void {
    for (const d of [...this.#hidden, this.#policy, this.#value]) {
      d.kernel.dispose();
      d.bias.dispose();
    }
  }
}
