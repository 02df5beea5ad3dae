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
import { POLICY_TARGET, searchTargetLoss, searchTargetTerm } from './loss.ts';
import type { ReplayBuffer } from './replay-buffer.ts';

export interface SearchUpdateSettings {
  readonly epochs: number;
  readonly minibatchSize: number;
  readonly valueCoef: number;
  readonly maxGradNorm: number;
}

/** A minibatch's rows: observations, legal masks, the search's policies and value targets. */
interface SearchMinibatch {
  readonly obs: Float32Array;
  readonly masks: Float32Array;
  readonly policies: Float32Array;
  readonly values: Float32Array;
}

/**
 * Expert iteration's update (the shared minibatch steps, gradients/): the
 * policy head towards the search's improved policy and the value head towards
 * its value target (loss.ts), over the replay window's rows.
 */
export class SearchTargetUpdater extends MinibatchUpdater<ReplayBuffer, SearchMinibatch> {
  constructor(
    tf: Tf,
    model: tfType.LayersModel,
    optimizer: tfType.AdamOptimizer,
    private readonly settings: SearchUpdateSettings,
    obsSize: number,
    onnx: OnnxGradientOptions | null = null,
  ) {
    super(
      tf,
      model,
      optimizer,
      { ...settings, skipShortTail: false },
      obsSize,
      searchTargetTerm(settings.valueCoef),
      onnx,
    );
  }

  async update(buffer: ReplayBuffer, rng: Random): Promise<UpdateStats> {
    const { means, samples, seconds } = await this.run(buffer, buffer.size, rng);
    const [policyLoss = 0, valueLoss = 0, entropy = 0] = means;
    return { policyLoss, valueLoss, entropy, samples, seconds };
  }

  protected slot(rows: number): SearchMinibatch {
    return {
      obs: new Float32Array(rows * this.inputSize),
      masks: new Float32Array(rows * NUM_ACTIONS),
      policies: new Float32Array(rows * NUM_ACTIONS),
      values: new Float32Array(rows),
    };
  }

  protected fill(
    buffer: ReplayBuffer,
    order: Int32Array,
    from: number,
    size: number,
    into: SearchMinibatch,
  ): void {
    gatherRows(buffer.observations, this.inputSize, order, from, size, into.obs);
    gatherRows(buffer.masks, NUM_ACTIONS, order, from, size, into.masks);
    gatherRows(buffer.policies, NUM_ACTIONS, order, from, size, into.policies);
    gatherRows(buffer.values, 1, order, from, size, into.values);
  }

  protected columns(batch: SearchMinibatch): Readonly<Record<string, Float32Array>> {
    return {
      [GRADIENT_INPUTS.observation]: batch.obs,
      [GRADIENT_INPUTS.mask]: batch.masks,
      [POLICY_TARGET]: batch.policies,
      [GRADIENT_INPUTS.valueTarget]: batch.values,
    };
  }

  protected tfjsLoss(batch: SearchMinibatch, size: number): TfjsLoss {
    const tensors = {
      obs: this.rows(batch.obs, this.inputSize, size),
      mask: this.rows(batch.masks, NUM_ACTIONS, size),
      targets: this.rows(batch.policies, NUM_ACTIONS, size),
      valueTargets: this.rows(batch.values, 1, size),
    };
    return searchTargetLoss(this.tf, this.model, tensors, this.settings.valueCoef);
  }
}
