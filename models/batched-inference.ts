import type * as tfType from '@tensorflow/tfjs';
import type { Tf } from './backend.ts';
import { NUM_ACTIONS } from './mlp-runner.ts';

/**
 * One tfjs call for a whole batch of observations (all environments of a
 * VectorEnv). `batchSize` is passed so tfjs does not split the batch into
 * chunks of 32.
 */
export function predictBatch(
  tf: Tf,
  model: tfType.LayersModel,
  observations: Float32Array,
  batch: number,
  obsSize: number,
  logits: Float32Array,
  values: Float32Array,
): void {
  const [l, v] = tf.tidy(() => {
    const x = tf.tensor2d(observations.subarray(0, batch * obsSize), [batch, obsSize]);
    return model.predict(x, { batchSize: batch }) as tfType.Tensor[];
  }) as [tfType.Tensor, tfType.Tensor];
  logits.set((l.dataSync() as Float32Array).subarray(0, batch * NUM_ACTIONS));
  values.set((v.dataSync() as Float32Array).subarray(0, batch));
  l.dispose();
  v.dispose();
}
