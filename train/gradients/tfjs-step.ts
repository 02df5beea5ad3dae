import type * as tfType from '@tensorflow/tfjs';
import type { Tf } from '../../models/backend.ts';

/**
 * Applies `grads` with `optimizer` after scaling them down to a global norm of
 * at most `maxGradNorm` (inside the caller's tf.tidy).
 */
export function applyClippedGradients(
  tf: Tf,
  optimizer: tfType.Optimizer,
  grads: tfType.NamedTensorMap,
  maxGradNorm: number,
): void {
  const names = Object.keys(grads);
  const norm = tf.sqrt(tf.addN(names.map((k) => tf.sum(tf.square(grads[k] as tfType.Tensor)))));
  const scale = tf.minimum(1, tf.div(maxGradNorm, tf.add(norm, 1e-6)));
  optimizer.applyGradients(
    names.map((name) => ({ name, tensor: tf.mul(grads[name] as tfType.Tensor, scale) })),
  );
}

/**
 * One optimizer step with tfjs's own gradients: `loss` builds the minibatch's
 * tensors and its loss (called inside tf.variableGrads over `variables`); the
 * gradients are clipped and applied; returns the loss's parts as numbers.
 */
export function tfjsGradientStep(
  tf: Tf,
  variables: tfType.Variable[],
  optimizer: tfType.Optimizer,
  maxGradNorm: number,
  loss: () => { total: tfType.Scalar; parts: tfType.Tensor[] },
): Float32Array {
  const stats = tf.tidy(() => {
    let parts: tfType.Tensor[] = [];
    const { grads } = tf.variableGrads(() => {
      const built = loss();
      parts = built.parts.map((t) => tf.keep(t));
      return built.total;
    }, variables);
    applyClippedGradients(tf, optimizer, grads, maxGradNorm);
    const out = tf.stack(parts);
    for (const p of parts) p.dispose();
    return out;
  });
  const values = stats.dataSync() as Float32Array;
  stats.dispose();
  return values;
}
