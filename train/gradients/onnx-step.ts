import type * as tfType from '@tensorflow/tfjs';
import type { Tf } from '../../models/backend.ts';
import { FloatAdam } from './float-adam.ts';
import type { WeightShape } from './gradient-graph.ts';
import type { GradientBatch, Gradients } from './onnx-gradients.ts';

/**
 * Where a step's gradients come from: one session over the whole minibatch
 * (OnnxGradients), or its slices' sessions (SlicedGradients).
 */
export interface GradientSource {
  readonly weights: readonly WeightShape[];
  /** `meanwhile`, if given and called (once), is this thread's other work while other threads compute. */
  compute(
    batch: GradientBatch,
    weights: readonly Float32Array[],
    meanwhile?: () => void,
  ): Gradients | Promise<Gradients>;
  /** Frees any threads it holds between updates. */
  release?(): Promise<void>;
  dispose(): void;
}

/**
 * A gradient step whose gradients come from onnxruntime-node and whose
 * optimizer is tfjs's Adam with clipping by global norm, its steps taken in
 * a WebAssembly kernel (float-adam.ts, tfjs's wasm Adam to the bit), so that the
 * optimizer's state and checkpoints do not depend on where the gradients were
 * computed. Used by both updaters when onnxruntime-node loads. An update's
 * steps borrow the weights and Adam's state from tfjs at the first `compute`
 * and give them back at `end`.
 */
export class OnnxGradientStep {
  #adam: FloatAdam | null = null;

  constructor(
    private readonly tf: Tf,
    private readonly variables: readonly tfType.Variable[],
    private readonly optimizer: tfType.Optimizer,
    readonly gradients: GradientSource,
    private readonly maxGradNorm: number,
  ) {
    checkWeightOrder(variables, gradients);
  }

  /**
   * The gradients of the loss over `batch` at the current weights (nothing
   * applied yet); `meanwhile` as GradientSource.compute.
   */
  async compute(batch: GradientBatch, meanwhile?: () => void): Promise<Gradients> {
    this.#adam ??= await FloatAdam.borrow(this.tf, this.optimizer, this.variables);
    return this.gradients.compute(batch, this.#adam.weightViews, meanwhile);
  }

  /** Applies gradients from `compute` (clipped, by Adam); returns the loss's statistics. */
  apply(result: Gradients): Float32Array {
    const adam = this.#adam;
    if (adam === null)
      throw new Error('a gradient step applied before its gradients were computed');
    adam.step(result.gradients, this.maxGradNorm);
    return result.stats;
  }

  /**
   * Ends an update: the gradients' threads are freed, and the weights and
   * Adam's state go back to tfjs's model and optimizer.
   */
  async end(): Promise<void> {
    const adam = this.#adam;
    this.#adam = null;
    try {
      await this.gradients.release?.();
    } finally {
      await adam?.giveBack();
    }
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
