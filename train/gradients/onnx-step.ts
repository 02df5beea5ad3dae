import type * as tfType from '@tensorflow/tfjs';
import type { Tf } from '../../models/backend.ts';
import type { WeightShape } from './gradient-graph.ts';
import type { GradientBatch, Gradients } from './onnx-gradients.ts';
import { applyClippedGradients } from './tfjs-step.ts';

/**
 * Where a step's gradients come from: one session over the whole minibatch
 * (OnnxGradients), or its slices' sessions (SlicedGradients).
 */
export interface GradientSource {
  readonly weights: readonly WeightShape[];
  compute(batch: GradientBatch, weights: readonly Float32Array[]): Gradients | Promise<Gradients>;
  /** Frees any threads it holds between updates. */
  release?(): Promise<void>;
  dispose(): void;
}

/**
 * A gradient step whose gradients come from onnxruntime-node and whose
 * optimizer (Adam, with clipping by global norm) stays tfjs's, so that the
 * optimizer's state and checkpoints do not depend on where the gradients were
 * computed. Used by both updaters when onnxruntime-node loads.
 */
export class OnnxGradientStep {
  constructor(
    private readonly tf: Tf,
    private readonly variables: readonly tfType.Variable[],
    private readonly optimizer: tfType.Optimizer,
    readonly gradients: GradientSource,
    private readonly maxGradNorm: number,
  ) {
    checkWeightOrder(variables, gradients);
  }

  /** The gradients of the loss over `batch` at the current weights (nothing applied yet). */
  compute(batch: GradientBatch): Gradients | Promise<Gradients> {
    const weights = this.variables.map((v) => v.dataSync() as Float32Array);
    return this.gradients.compute(batch, weights);
  }

  /** Applies gradients from `compute` (clipped, by Adam); returns the loss's statistics. */
  apply(result: Gradients): Float32Array {
    const tf = this.tf;
    tf.tidy(() => {
      const grads: tfType.NamedTensorMap = {};
      this.variables.forEach((v, i) => {
        grads[v.name] = tf.tensor(result.gradients[i] as Float32Array, v.shape);
      });
      applyClippedGradients(tf, this.optimizer, grads, this.maxGradNorm);
    });
    return result.stats;
  }

  /** Releases the gradient session. */
  dispose(): void {
    this.gradients.dispose();
  }
}

/** The gradient graph's weights must be the model's trainable weights, in the same order and shapes. */
function checkWeightOrder(variables: readonly tfType.Variable[], gradients: GradientSource): void {
  const expected = gradients.weights;
  const matches =
    variables.length === expected.length &&
    variables.every((v, i) => {
      const w = expected[i];
      return (
        w !== undefined &&
        v.name.startsWith(w.name) &&
        v.shape.length === w.shape.length &&
        v.shape.every((d, k) => d === w.shape[k])
      );
    });
  if (!matches) {
    throw new Error(
      `the gradient graph's weights (${expected.map((w) => w.name).join(', ')}) are not the model's (${variables.map((v) => v.name).join(', ')})`,
    );
  }
}
