import type * as tfType from '@tensorflow/tfjs';
import type { Random } from '../../env/random.ts';
import type { Tf } from '../../models/backend.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { gatherRows } from '../gradients/minibatch-rows.ts';
import {
  MinibatchUpdater,
  type OnnxGradientOptions,
  type TfjsLoss,
} from '../gradients/minibatch-updater.ts';
import { GRADIENT_INPUTS } from '../gradients/policy-term.ts';
import type { UpdateStats } from '../iteration-stats.ts';
import {
  POLICY_GRADIENT_INPUTS,
  type PolicyGradientLossSettings,
  policyGradientLoss,
  policyGradientTerm,
} from './loss.ts';
import type { RolloutBuffer } from './rollout-buffer.ts';

export interface UpdateSettings extends PolicyGradientLossSettings {
  readonly epochs: number;
  readonly minibatchSize: number;
  readonly maxGradNorm: number;
}

/** An update's losses and PPO's diagnostics of how far the policy moved. */
export interface PolicyUpdateStats extends UpdateStats {
  approxKl: number;
  clipFraction: number;
}

/** A minibatch's rows: observations, legal masks, actions one-hot, the rollout's log-probabilities, normalised advantages and returns. */
interface PolicyMinibatch {
  readonly obs: Float32Array;
  readonly masks: Float32Array;
  /** The actions taken, one-hot (as the gradient graph and the tfjs loss both take them). */
  readonly actionOneHot: Float32Array;
  readonly logProbs: Float32Array;
  readonly advantages: Float32Array;
  readonly returns: Float32Array;
}

/**
 * Gradient steps on a rollout (the shared minibatch steps, gradients/): PPO's
 * clipped surrogate over several epochs, or plain REINFORCE with the value as
 * baseline over one, no clipping (loss.ts). A minibatch's tail shorter than
 * half a minibatch is left out: its normalised advantages are noisy.
 */
export class PolicyUpdater extends MinibatchUpdater<RolloutBuffer, PolicyMinibatch> {
  constructor(
    tf: Tf,
    model: tfType.LayersModel,
    optimizer: tfType.AdamOptimizer,
    private readonly settings: UpdateSettings,
    obsSize: number,
    onnx: OnnxGradientOptions | null = null,
  ) {
    super(
      tf,
      model,
      optimizer,
      {
        epochs: settings.algorithm === 'ppo' ? settings.epochs : 1,
        minibatchSize: settings.minibatchSize,
        skipShortTail: true,
        maxGradNorm: settings.maxGradNorm,
      },
      obsSize,
      policyGradientTerm(settings),
      onnx,
    );
  }

  async update(buffer: RolloutBuffer, rng: Random): Promise<PolicyUpdateStats> {
    const { means, samples, seconds } = await this.run(buffer, buffer.size, rng);
    const [policyLoss = 0, valueLoss = 0, entropy = 0, approxKl = 0, clipFraction = 0] = means;
    return { policyLoss, valueLoss, entropy, approxKl, clipFraction, samples, seconds };
  }

  protected slot(rows: number): PolicyMinibatch {
    return {
      obs: new Float32Array(rows * this.inputSize),
      masks: new Float32Array(rows * NUM_ACTIONS),
      actionOneHot: new Float32Array(rows * NUM_ACTIONS),
      logProbs: new Float32Array(rows),
      advantages: new Float32Array(rows),
      returns: new Float32Array(rows),
    };
  }

  /** The rows, their advantages normalised over the minibatch. */
  protected fill(
    buffer: RolloutBuffer,
    order: Int32Array,
    from: number,
    size: number,
    into: PolicyMinibatch,
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
    gatherRows(buffer.observations, this.inputSize, order, from, size, into.obs);
    for (let r = 0; r < size; r++) {
      const k = order[from + r] as number;
      for (let a = 0; a < NUM_ACTIONS; a++) {
        into.masks[r * NUM_ACTIONS + a] = buffer.masks[k * NUM_ACTIONS + a] as number;
      }
      const action = buffer.actions[k] as number;
      into.actionOneHot.fill(0, r * NUM_ACTIONS, (r + 1) * NUM_ACTIONS);
      into.actionOneHot[r * NUM_ACTIONS + action] = 1;
      into.logProbs[r] = buffer.logProbs[k] as number;
      into.advantages[r] = ((buffer.advantages[k] as number) - mean) / std;
      into.returns[r] = buffer.returns[k] as number;
    }
  }

  protected columns(batch: PolicyMinibatch): Readonly<Record<string, Float32Array>> {
    return {
      [GRADIENT_INPUTS.observation]: batch.obs,
      [GRADIENT_INPUTS.mask]: batch.masks,
      [POLICY_GRADIENT_INPUTS.action]: batch.actionOneHot,
      [POLICY_GRADIENT_INPUTS.oldLogProb]: batch.logProbs,
      [POLICY_GRADIENT_INPUTS.advantage]: batch.advantages,
      [GRADIENT_INPUTS.valueTarget]: batch.returns,
    };
  }

  protected tfjsLoss(batch: PolicyMinibatch, size: number): TfjsLoss {
    const tensors = {
      obs: this.rows(batch.obs, this.inputSize, size),
      mask: this.rows(batch.masks, NUM_ACTIONS, size),
      actions: this.rows(batch.actionOneHot, NUM_ACTIONS, size),
      oldLogProbs: this.rows(batch.logProbs, 1, size),
      advantages: this.rows(batch.advantages, 1, size),
      returns: this.rows(batch.returns, 1, size),
    };
    return policyGradientLoss(this.tf, this.model, tensors, this.settings);
  }
}
