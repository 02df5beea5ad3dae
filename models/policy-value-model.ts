import type * as tfType from '@tensorflow/tfjs';
import { z } from 'zod';
import type { Tf } from './backend.ts';
import type { Activation, DenseWeights, MlpWeights } from './mlp-runner.ts';

export const networkConfigSchema = z
  .object({
    hidden: z
      .array(z.number().int().min(1).max(4096))
      .min(1)
      .max(8)
      .describe('hidden layer widths of the shared trunk'),
    activation: z.enum(['relu', 'tanh']).describe('activation of the hidden layers'),
  })
  .strict();
export type NetworkConfig = z.infer<typeof networkConfigSchema>;

export const POLICY_OUTPUT = 'policy_logits';
export const VALUE_OUTPUT = 'value';

/**
 * The policy-value network: an MLP trunk over the observation, a linear head of
 * 6 action logits and a tanh value head (the expected result for the player to
 * move, in [-1, 1]). Illegal actions are masked out of the logits before any
 * softmax (see `maskedLogits` and the runner's `maskedSoftmax`), so they never
 * get probability.
 */
export function createPolicyValueModel(
  tf: Tf,
  inputSize: number,
  config: NetworkConfig,
  seed: number,
): tfType.LayersModel {
  if (!Number.isInteger(inputSize) || inputSize < 1) {
    throw new Error(`inputSize must be a positive integer, got ${inputSize}`);
  }
  const checked = networkConfigSchema.parse(config);
  const input = tf.input({ shape: [inputSize], name: 'observation' });
  let x: tfType.SymbolicTensor = input;
  checked.hidden.forEach((units, i) => {
    x = tf.layers
      .dense({
        units,
        activation: checked.activation,
        name: `hidden_${i + 1}`,
        kernelInitializer: tf.initializers.heNormal({ seed: seed + i }),
      })
      .apply(x) as tfType.SymbolicTensor;
  });
  const logits = tf.layers
    .dense({
      units: 6,
      name: POLICY_OUTPUT,
      // Small initial logits give a near-uniform first policy.
      kernelInitializer: tf.initializers.randomNormal({ stddev: 0.01, seed: seed + 101 }),
    })
    .apply(x) as tfType.SymbolicTensor;
  const value = tf.layers
    .dense({
      units: 1,
      activation: 'tanh',
      name: VALUE_OUTPUT,
      kernelInitializer: tf.initializers.glorotUniform({ seed: seed + 102 }),
    })
    .apply(x) as tfType.SymbolicTensor;
  return tf.model({ inputs: input, outputs: [logits, value], name: 'ayoayo_policy_value' });
}

/** Logits with illegal actions pushed to a value whose softmax weight is exactly 0. */
export function maskedLogits(tf: Tf, logits: tfType.Tensor, mask: tfType.Tensor): tfType.Tensor {
  // exp(-1e9 - max) underflows to exactly 0 in float32, unlike a merely large penalty.
  return tf.where(tf.greater(mask, 0), logits, tf.fill(logits.shape, -1e9));
}

function denseOf(model: tfType.LayersModel, name: string, activation: Activation): DenseWeights {
  const layer = model.getLayer(name);
  const [kernel, bias] = layer.getWeights();
  if (kernel === undefined || bias === undefined) throw new Error(`layer ${name} has no weights`);
  const [inputSize, outputSize] = kernel.shape as [number, number];
  return {
    inputSize,
    outputSize,
    activation,
    kernel: Float32Array.from(kernel.dataSync()),
    bias: Float32Array.from(bias.dataSync()),
  };
}

/** The model's weights as plain arrays, for the runner and the exporters. */
export function extractMlpWeights(model: tfType.LayersModel, config: NetworkConfig): MlpWeights {
  const hidden = config.hidden.map((_, i) => denseOf(model, `hidden_${i + 1}`, config.activation));
  const first = hidden[0];
  if (first === undefined) throw new Error('network has no hidden layer');
  return {
    inputSize: first.inputSize,
    hidden,
    policy: denseOf(model, POLICY_OUTPUT, 'linear'),
    value: denseOf(model, VALUE_OUTPUT, 'tanh'),
  };
}
