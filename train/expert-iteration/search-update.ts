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
 * minibatches gathered in JS (tf.gather is slow on wasm), with gradients
 * clipped by global norm. The gradients come from onnxruntime-node when the
 * updater is given onnxruntime-node (train/gradients/, four to six times
 * faster than tfjs on wasm), else from tfjs; Adam and the clipping give tfjs's
 * wasm floats either way (train/gradients/float-adam.ts), so the optimizer's
 * state and checkpoints do not depend on it.
 */
export class SearchTargetUpdater extends MinibatchUpdater {
  /** Two minibatches: the step's, and the next one, filled while the step's slices are computed. */
  readonly #slots: readonly [SearchMinibatch, SearchMinibatch];
  #slot = 0;
  private order = new Int32Array(0);
  /** Seconds spent filling minibatches (benchmarks: work that overlaps the slices' threads). */
  fillSeconds = 0;

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
    const slot = (): SearchMinibatch => {
      const m = settings.minibatchSize;
      return {
        obs: new Float32Array(m * obsSize),
        masks: new Float32Array(m * NUM_ACTIONS),
        policies: new Float32Array(m * NUM_ACTIONS),
        values: new Float32Array(m),
      };
    };
    this.#slots = [slot(), slot()];
  }

  update(buffer: ReplayBuffer, rng: Random): Promise<UpdateStats> {
    return this.updating(async () => {
      const start = performance.now();
      const n = buffer.size;
      if (this.order.length < n) this.order = new Int32Array(n);
      const plan = this.#plan(n, rng);
      const totals = [0, 0, 0];
      let steps = 0;
      let samples = 0;
      let current = plan.next();
      if (!current.done) this.#fill(buffer, current.value, 0);
      this.#slot = 0;
      while (!current.done) {
        const { size } = current.value;
        let upcoming: IteratorResult<PlannedMinibatch> = { done: true, value: undefined };
        const stats = await this.step(size, () => {
          upcoming = plan.next();
          if (!upcoming.done) this.#fill(buffer, upcoming.value, 1 - this.#slot);
        });
        for (let s = 0; s < 3; s++) totals[s] = (totals[s] as number) + (stats[s] as number);
        steps++;
        samples += size;
        current = upcoming;
        this.#slot = 1 - this.#slot;
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

  /**
   * The update's minibatches in order: each epoch's rows shuffled (drawn from
   * `rng` when its first minibatch is asked for), cut into minibatches.
   */
  *#plan(n: number, rng: Random): Generator<PlannedMinibatch> {
    const { epochs, minibatchSize } = this.settings;
    const order = this.order;
    for (let epoch = 0; epoch < epochs; epoch++) {
      shuffledOrder(order, n, rng);
      for (let from = 0; from < n; from += minibatchSize) {
        yield { from, size: Math.min(minibatchSize, n - from) };
      }
    }
  }

  #fill(buffer: ReplayBuffer, { from, size }: PlannedMinibatch, slot: number): void {
    const start = performance.now();
    const into = this.#slots[slot] as SearchMinibatch;
    const order = this.order;
    gatherRows(buffer.observations, this.obsSize, order, from, size, into.obs);
    gatherRows(buffer.masks, NUM_ACTIONS, order, from, size, into.masks);
    gatherRows(buffer.policies, NUM_ACTIONS, order, from, size, into.policies);
    gatherRows(buffer.values, 1, order, from, size, into.values);
    this.fillSeconds += (performance.now() - start) / 1000;
  }

  /** The step's minibatch as the gradient graph's inputs. */
  protected minibatch(size: number): GradientBatch {
    const batch = this.#slots[this.#slot] as SearchMinibatch;
    return {
      size,
      columns: {
        [GRADIENT_INPUTS.observation]: batch.obs,
        [GRADIENT_INPUTS.mask]: batch.masks,
        [GRADIENT_INPUTS.policyTarget]: batch.policies,
        [GRADIENT_INPUTS.valueTarget]: batch.values,
      },
    };
  }

  /** The step with tfjs's own gradients. */
  protected tfjsStep(size: number): Float32Array {
    const tf = this.tf;
    const { valueCoef, maxGradNorm } = this.settings;
    const batch = this.#slots[this.#slot] as SearchMinibatch;
    return tfjsGradientStep(tf, this.variables, this.optimizer, maxGradNorm, () => {
      const obs = tf.tensor2d(batch.obs.subarray(0, size * this.obsSize), [size, this.obsSize]);
      const mask = tf.tensor2d(batch.masks.subarray(0, size * NUM_ACTIONS), [size, NUM_ACTIONS]);
      const targets = tf.tensor2d(batch.policies.subarray(0, size * NUM_ACTIONS), [
        size,
        NUM_ACTIONS,
      ]);
      const valueTargets = tf.tensor1d(batch.values.subarray(0, size));
      return searchTargetLoss(tf, this.model, { obs, mask, targets, valueTargets }, valueCoef);
    });
  }
}

/** A minibatch's rows: observations, legal masks, the search's policies and value targets. */
interface SearchMinibatch {
  readonly obs: Float32Array;
  readonly masks: Float32Array;
  readonly policies: Float32Array;
  readonly values: Float32Array;
}

/** Rows `order[from]` .. `order[from + size - 1]` of the buffer. */
interface PlannedMinibatch {
  readonly from: number;
  readonly size: number;
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
