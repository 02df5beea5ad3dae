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
import type { RolloutBuffer } from './rollout-buffer.ts';

export interface UpdateSettings {
  readonly algorithm: 'ppo' | 'reinforce';
  readonly epochs: number;
  readonly minibatchSize: number;
  readonly clip: number;
  readonly valueCoef: number;
  readonly entropyCoef: number;
  readonly maxGradNorm: number;
}

/** An update's losses and PPO's diagnostics of how far the policy moved. */
export interface PolicyUpdateStats extends UpdateStats {
  approxKl: number;
  clipFraction: number;
}

/**
 * Gradient steps on a rollout: PPO's clipped surrogate (several epochs) or plain
 * REINFORCE with the value as baseline (one epoch, no clipping). Minibatches are
 * sliced from the buffer's typed arrays in JS, not gathered with tfjs, which is
 * slow on the wasm backend. The gradients come from onnxruntime-node when the
 * updater is given onnxruntime-node (train/gradients/), else from tfjs;
 * Adam and the clipping give tfjs's wasm floats either way
 * (train/gradients/float-adam.ts).
 */
export class PolicyUpdater extends MinibatchUpdater {
  private readonly mbObs: Float32Array;
  private readonly mbMasks: Float32Array;
  /** The actions taken, one-hot (as the gradient graph and the tfjs loss both take them). */
  private readonly mbActionOneHot: Float32Array;
  private readonly mbLogProbs: Float32Array;
  private readonly mbAdvantages: Float32Array;
  private readonly mbReturns: Float32Array;
  private order = new Int32Array(0);

  constructor(
    tf: Tf,
    model: tfType.LayersModel,
    optimizer: tfType.AdamOptimizer,
    private readonly settings: UpdateSettings,
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
      {
        kind: settings.algorithm,
        valueCoef: settings.valueCoef,
        clip: settings.clip,
        entropyCoef: settings.entropyCoef,
      },
      onnx,
    );
    const m = settings.minibatchSize;
    this.mbObs = new Float32Array(m * obsSize);
    this.mbMasks = new Float32Array(m * NUM_ACTIONS);
    this.mbActionOneHot = new Float32Array(m * NUM_ACTIONS);
    this.mbLogProbs = new Float32Array(m);
    this.mbAdvantages = new Float32Array(m);
    this.mbReturns = new Float32Array(m);
  }

  update(buffer: RolloutBuffer, rng: Random): Promise<PolicyUpdateStats> {
    return this.updating(async () => {
      const start = performance.now();
      const n = buffer.size;
      if (this.order.length < n) this.order = new Int32Array(buffer.capacity);
      const order = this.order;
      const epochs = this.settings.algorithm === 'ppo' ? this.settings.epochs : 1;
      const totals = { policyLoss: 0, valueLoss: 0, entropy: 0, approxKl: 0, clipFraction: 0 };
      let steps = 0;
      let samples = 0;
      for (let epoch = 0; epoch < epochs; epoch++) {
        shuffledOrder(order, n, rng);
        for (let startRow = 0; startRow < n; startRow += this.settings.minibatchSize) {
          const size = Math.min(this.settings.minibatchSize, n - startRow);
          // A tail much smaller than a minibatch gives noisy normalised advantages.
          if (size < Math.min(this.settings.minibatchSize, n) / 2) break;
          this.fillMinibatch(buffer, order, startRow, size);
          const stats = await this.step(size);
          totals.policyLoss += stats[0] as number;
          totals.valueLoss += stats[1] as number;
          totals.entropy += stats[2] as number;
          totals.approxKl += stats[3] as number;
          totals.clipFraction += stats[4] as number;
          steps++;
          samples += size;
        }
      }
      const d = Math.max(1, steps);
      return {
        policyLoss: totals.policyLoss / d,
        valueLoss: totals.valueLoss / d,
        entropy: totals.entropy / d,
        approxKl: totals.approxKl / d,
        clipFraction: totals.clipFraction / d,
        samples,
        seconds: (performance.now() - start) / 1000,
      };
    });
  }

  private fillMinibatch(
    buffer: RolloutBuffer,
    order: Int32Array,
    from: number,
    size: number,
  ): void {
    let mean = 0;
    for (let r = 0; r < size; r++) mean += buffer.advantages[order[from + r] as number] as number;
    mean /= size;
    let variance = 0;
    for (let r = 0; r < size; r++) {
      const d = (buffer.advantages[order[from + r] as number] as number) - mean;
      variance += d * d;
    }
    const std = Math.sqrt(variance / size) + 1e-8;
    gatherRows(buffer.observations, this.obsSize, order, from, size, this.mbObs);
    for (let r = 0; r < size; r++) {
      const k = order[from + r] as number;
      for (let a = 0; a < NUM_ACTIONS; a++) {
        this.mbMasks[r * NUM_ACTIONS + a] = buffer.masks[k * NUM_ACTIONS + a] as number;
      }
      const action = buffer.actions[k] as number;
      this.mbActionOneHot.fill(0, r * NUM_ACTIONS, (r + 1) * NUM_ACTIONS);
      this.mbActionOneHot[r * NUM_ACTIONS + action] = 1;
      this.mbLogProbs[r] = buffer.logProbs[k] as number;
      this.mbAdvantages[r] = ((buffer.advantages[k] as number) - mean) / std;
      this.mbReturns[r] = buffer.returns[k] as number;
    }
  }

  /** The minibatch as the gradient graph's inputs. */
  protected minibatch(size: number): GradientBatch {
    return {
      size,
      columns: {
        [GRADIENT_INPUTS.observation]: this.mbObs,
        [GRADIENT_INPUTS.mask]: this.mbMasks,
        [GRADIENT_INPUTS.action]: this.mbActionOneHot,
        [GRADIENT_INPUTS.oldLogProb]: this.mbLogProbs,
        [GRADIENT_INPUTS.advantage]: this.mbAdvantages,
        [GRADIENT_INPUTS.valueTarget]: this.mbReturns,
      },
    };
  }

  /** The step with tfjs's own gradients. */
  protected tfjsStep(size: number): Float32Array {
    const tf = this.tf;
    return tfjsGradientStep(tf, this.variables, this.optimizer, this.settings.maxGradNorm, () => {
      const obs = tf.tensor2d(this.mbObs.subarray(0, size * this.obsSize), [size, this.obsSize]);
      const mask = tf.tensor2d(this.mbMasks.subarray(0, size * NUM_ACTIONS), [size, NUM_ACTIONS]);
      const actions = tf.tensor2d(this.mbActionOneHot.subarray(0, size * NUM_ACTIONS), [
        size,
        NUM_ACTIONS,
      ]);
      const oldLogProbs = tf.tensor1d(this.mbLogProbs.subarray(0, size));
      const advantages = tf.tensor1d(this.mbAdvantages.subarray(0, size));
      const returns = tf.tensor1d(this.mbReturns.subarray(0, size));
      return policyGradientLoss(
        tf,
        this.model,
        { obs, mask, actions, oldLogProbs, advantages, returns },
        this.settings,
      );
    });
  }
}

/** A minibatch as tensors: observations, legal masks, actions one-hot, and the rollout's log-probabilities, advantages and returns ([batch]). */
export interface PolicyGradientTensors {
  readonly obs: tfType.Tensor;
  readonly mask: tfType.Tensor;
  readonly actions: tfType.Tensor;
  readonly oldLogProbs: tfType.Tensor;
  readonly advantages: tfType.Tensor;
  readonly returns: tfType.Tensor;
}

/**
 * PPO's clipped surrogate or REINFORCE's policy gradient, plus the value loss
 * and the entropy bonus, in tfjs (inside the caller's tf.variableGrads): the
 * total, and [policy loss, value loss, entropy, approx KL, clip fraction].
 */
export function policyGradientLoss(
  tf: Tf,
  model: tfType.LayersModel,
  { obs, mask, actions, oldLogProbs, advantages, returns }: PolicyGradientTensors,
  settings: Pick<UpdateSettings, 'algorithm' | 'clip' | 'valueCoef' | 'entropyCoef'>,
): { total: tfType.Scalar; parts: tfType.Tensor[] } {
  const { clip, valueCoef, entropyCoef, algorithm } = settings;
  const [logits, value] = model.apply(obs, { training: true }) as tfType.Tensor[];
  const logProbsAll = tf.logSoftmax(maskedLogits(tf, logits as tfType.Tensor, mask));
  const logProbs = tf.sum(tf.mul(logProbsAll, actions), 1);
  const ratio = tf.exp(tf.sub(logProbs, oldLogProbs));
  const policyLoss =
    algorithm === 'ppo'
      ? tf.neg(
          tf.mean(
            tf.minimum(
              tf.mul(ratio, advantages),
              tf.mul(tf.clipByValue(ratio, 1 - clip, 1 + clip), advantages),
            ),
          ),
        )
      : tf.neg(tf.mean(tf.mul(logProbs, advantages)));
  const valueLoss = tf.mean(tf.square(tf.sub(tf.reshape(value as tfType.Tensor, [-1]), returns)));
  // Illegal actions have probability exactly 0, so they add nothing here.
  const entropy = tf.neg(tf.mean(tf.sum(tf.mul(tf.exp(logProbsAll), logProbsAll), 1)));
  const logRatio = tf.sub(logProbs, oldLogProbs);
  const approxKl = tf.mean(tf.sub(tf.sub(ratio, 1), logRatio));
  const clipFraction = tf.mean(tf.cast(tf.greater(tf.abs(tf.sub(ratio, 1)), clip), 'float32'));
  return {
    total: tf.add(
      tf.add(policyLoss, tf.mul(valueCoef, valueLoss)),
      tf.mul(-entropyCoef, entropy),
    ) as tfType.Scalar,
    parts: [policyLoss, valueLoss, entropy, approxKl, clipFraction],
  };
}
