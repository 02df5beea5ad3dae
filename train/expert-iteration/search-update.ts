import type * as tfType from '@tensorflow/tfjs';
import type { Random } from '../../env/random.ts';
import type { Tf } from '../../models/backend.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { maskedLogits } from '../../models/policy-value-model.ts';
import { GRADIENT_INPUTS } from '../gradients/gradient-graph.ts';
import { gatherRows, shuffledOrder } from '../gradients/minibatch-rows.ts';
import { MinibatchUpdater, type OnnxGradientOptions } from '../gradients/minibatch-updater.ts';
import type { GradientBatch } from '../gradients/onnx-gradients.ts';
import { tfjsGradientStep } from '../gradients/tfjs-step.ts';
import type { UpdateStats } from '../training-algorithm.ts';
import type { ReplayBuffer } from './replay-buffer.ts';

export interface SearchUpdateSettings {
  readonly epochs: number;
  readonly minibatchSize: number;
  readonly valueCoef: number;
  readonly maxGradNorm: number;
}

/**
 * Expert iteration's update: the policy head towards the search's improved
 * policy (cross-entropy over the legal actions) and the value head towards
 * its value target (squared error), for several epochs of shuffled
 * minibatches sliced in JS (tf.gather is slow on wasm), with gradients
 * clipped by global norm. The gradients come from onnxruntime-node when the
 * updater is given onnxruntime-node (train/gradients/, four to six times
 * faster than tfjs on wasm), else from tfjs; Adam and the clipping are tfjs's
 * either way, so the optimizer's state and checkpoints do not depend on it.
 */
export class SearchTargetUpdater extends MinibatchUpdater {
  private readonly mbObs: Float32Array;
  private readonly mbMasks: Float32Array;
  private readonly mbPolicies: Float32Array;
  private readonly mbValues: Float32Array;
  private order = new Int32Array(0);

  constructor(
    tf: Tf,
    model: tfType.LayersModel,
    optimizer: tfType.AdamOptimizer,
    private readonly settings: SearchUpdateSettings,
    private readonly obsSize: number,
    onnx: OnnxGradientOptions | null = null,
  ) {
    super(
      tf,
      model,
      optimizer,
      settings.maxGradNorm,
      obsSize,
      settings.minibatchSize,
      { kind: 'search-targets', valueCoef: settings.valueCoef },
      onnx,
    );
    const m = settings.minibatchSize;
    this.mbObs = new Float32Array(m * obsSize);
    this.mbMasks = new Float32Array(m * NUM_ACTIONS);
    this.mbPolicies = new Float32Array(m * NUM_ACTIONS);
    this.mbValues = new Float32Array(m);
  }

  update(buffer: ReplayBuffer, rng: Random): Promise<UpdateStats> {
    return this.updating(async () => {
      const start = performance.now();
      const n = buffer.size;
      if (this.order.length < n) this.order = new Int32Array(n);
      const order = this.order;
      const { epochs, minibatchSize } = this.settings;
      const totals = [0, 0, 0];
      let steps = 0;
      let samples = 0;
      for (let epoch = 0; epoch < epochs; epoch++) {
        shuffledOrder(order, n, rng);
        for (let from = 0; from < n; from += minibatchSize) {
          const size = Math.min(minibatchSize, n - from);
          this.fillMinibatch(buffer, order, from, size);
          const stats = await this.step(size);
          for (let s = 0; s < 3; s++) totals[s] = (totals[s] as number) + (stats[s] as number);
          steps++;
          samples += size;
        }
      }
      const d = Math.max(1, steps);
      return {
        policyLoss: (totals[0] as number) / d,
        valueLoss: (totals[1] as number) / d,
        entropy: (totals[2] as number) / d,
        samples,
        seconds: (performance.now() - start) / 1000,
      };
    });
  }

  private fillMinibatch(buffer: ReplayBuffer, order: Int32Array, from: number, size: number): void {
    gatherRows(buffer.observations, this.obsSize, order, from, size, this.mbObs);
    gatherRows(buffer.masks, NUM_ACTIONS, order, from, size, this.mbMasks);
    gatherRows(buffer.policies, NUM_ACTIONS, order, from, size, this.mbPolicies);
    gatherRows(buffer.values, 1, order, from, size, this.mbValues);
  }

  /** The minibatch as the gradient graph's inputs. */
  protected minibatch(size: number): GradientBatch {
    return {
      size,
      columns: {
        [GRADIENT_INPUTS.observation]: this.mbObs,
        [GRADIENT_INPUTS.mask]: this.mbMasks,
        [GRADIENT_INPUTS.policyTarget]: this.mbPolicies,
        [GRADIENT_INPUTS.valueTarget]: this.mbValues,
      },
    };
  }

  /** The step with tfjs's own gradients. */
  protected tfjsStep(size: number): Float32Array {
    const tf = this.tf;
    const { valueCoef, maxGradNorm } = this.settings;
    return tfjsGradientStep(tf, this.variables, this.optimizer, maxGradNorm, () => {
      const obs = tf.tensor2d(this.mbObs.subarray(0, size * this.obsSize), [size, this.obsSize]);
      const mask = tf.tensor2d(this.mbMasks.subarray(0, size * NUM_ACTIONS), [size, NUM_ACTIONS]);
      const targets = tf.tensor2d(this.mbPolicies.subarray(0, size * NUM_ACTIONS), [
        size,
        NUM_ACTIONS,
      ]);
      const valueTargets = tf.tensor1d(this.mbValues.subarray(0, size));
      return searchTargetLoss(tf, this.model, { obs, mask, targets, valueTargets }, valueCoef);
    });
  }
}

/** A minibatch as tensors: observations, legal masks, the search's policies and value targets ([batch]). */
export interface SearchTargetTensors {
  readonly obs: tfType.Tensor;
  readonly mask: tfType.Tensor;
  readonly targets: tfType.Tensor;
  readonly valueTargets: tfType.Tensor;
}

/**
 * Expert iteration's loss in tfjs (inside the caller's tf.variableGrads):
 * the total, and [policy cross-entropy, value loss, entropy].
 */
export function searchTargetLoss(
  tf: Tf,
  model: tfType.LayersModel,
  { obs, mask, targets, valueTargets }: SearchTargetTensors,
  valueCoef: number,
): { total: tfType.Scalar; parts: tfType.Tensor[] } {
  const [logits, value] = model.apply(obs, { training: true }) as tfType.Tensor[];
  const logProbs = tf.logSoftmax(maskedLogits(tf, logits as tfType.Tensor, mask));
  // Targets are exactly 0 on illegal actions, whose masked log-probabilities are very negative but finite.
  const policyLoss = tf.neg(tf.mean(tf.sum(tf.mul(targets, logProbs), 1)));
  const valueLoss = tf.mean(
    tf.square(tf.sub(tf.reshape(value as tfType.Tensor, [-1]), valueTargets)),
  );
  const entropy = tf.neg(tf.mean(tf.sum(tf.mul(tf.exp(logProbs), logProbs), 1)));
  return {
    total: tf.add(policyLoss, tf.mul(valueCoef, valueLoss)) as tfType.Scalar,
    parts: [policyLoss, valueLoss, entropy],
  };
}
