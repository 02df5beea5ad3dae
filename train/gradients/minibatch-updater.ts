import type * as tfType from '@tensorflow/tfjs';
import type { Tf } from '../../models/backend.ts';
import type { GradientBatch, OnnxGradients } from './onnx-gradients.ts';
import { OnnxGradientStep } from './onnx-step.ts';
import type { GradientLoss } from './policy-terms.ts';

/**
 * What every updater shares: its model's variables, and where a minibatch's
 * gradients come from — onnxruntime-node when the updater is given its
 * gradient session for the right loss, else tfjs. Subclasses fill their
 * minibatch and say how it reads as the gradient graph's columns and as tfjs's
 * loss.
 */
export abstract class MinibatchUpdater {
  protected readonly variables: tfType.Variable[];
  private readonly onnx: OnnxGradientStep | null;

  constructor(
    protected readonly tf: Tf,
    protected readonly model: tfType.LayersModel,
    readonly optimizer: tfType.AdamOptimizer,
    maxGradNorm: number,
    gradients: OnnxGradients | null,
    expected: { kind: GradientLoss['kind']; update: string },
  ) {
    this.variables = model.trainableWeights.map((w) => w.read() as tfType.Variable);
    if (gradients !== null && gradients.loss.kind !== expected.kind) {
      throw new Error(
        `${expected.update} needs the ${expected.kind} gradient graph, not ${gradients.loss.kind}'s`,
      );
    }
    this.onnx =
      gradients === null
        ? null
        : new OnnxGradientStep(tf, this.variables, optimizer, gradients, maxGradNorm);
  }

  /** Releases the gradient session (the model and optimizer are the learner's). */
  dispose(): void {
    this.onnx?.dispose();
  }

  /** What computes the gradients: `onnx` (onnxruntime-node) or `tfjs`. */
  get gradientBackend(): 'onnx' | 'tfjs' {
    return this.onnx === null ? 'tfjs' : 'onnx';
  }

  /** One gradient step over the first `size` rows of the minibatch; returns the loss's statistics. */
  protected step(size: number): ArrayLike<number> {
    return this.onnx === null ? this.tfjsStep(size) : this.onnx.step(this.minibatch(size));
  }

  /** The minibatch as the gradient graph's inputs. */
  protected abstract minibatch(size: number): GradientBatch;

  /** The step with tfjs's own gradients. */
  protected abstract tfjsStep(size: number): Float32Array;
}
