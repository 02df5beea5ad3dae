import type * as tfType from '@tensorflow/tfjs';
import { loadBackend } from './backend.ts';
import type { DenseWeights, MlpWeights } from './mlp-runner.ts';
import type { ForwardPass } from './network-evaluator.ts';

/**
 * The network's forward pass through tfjs (wasm backend, SIMD): about 10x
 * cheaper per position than the plain runner at batches of 16-64, and slower
 * at batch 1 (bench/agents.bench.ts), so batched searches use it. Plain
 * tensor ops rather than a LayersModel: less overhead per call.
 */
export async function tfjsForward(weights: MlpWeights): Promise<ForwardPass> {
  const { tf } = await loadBackend('auto');
  const layer = (d: DenseWeights) => ({
    kernel: tf.tensor2d(d.kernel, [d.inputSize, d.outputSize]),
    bias: tf.tensor1d(d.bias),
    activation: d.activation,
  });
  const hidden = weights.hidden.map(layer);
  const policy = layer(weights.policy);
  const value = layer(weights.value);
  const apply = (x: tfType.Tensor2D, l: ReturnType<typeof layer>): tfType.Tensor2D => {
    const z = tf.add(tf.matMul(x, l.kernel), l.bias) as tfType.Tensor2D;
    return l.activation === 'relu' ? tf.relu(z) : l.activation === 'tanh' ? tf.tanh(z) : z;
  };
  const inputSize = weights.inputSize;
  return (observations, batch, logits, values) => {
    const [l, v] = tf.tidy(() => {
      let x = tf.tensor2d(observations.subarray(0, batch * inputSize), [batch, inputSize]);
      for (const h of hidden) x = apply(x, h);
      return [apply(x, policy), apply(x, value)];
    }) as [tfType.Tensor, tfType.Tensor];
    logits.set(l.dataSync() as Float32Array);
    values.set(v.dataSync() as Float32Array);
    l.dispose();
    v.dispose();
  };
}
