import type * as tfType from '@tensorflow/tfjs';
import type { Tf } from '../../models/backend.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { maskedLogits } from '../../models/policy-value-model.ts';
import { type PolicyTerm, policyTerm } from '../gradients/policy-term.ts';

/**
 * Expert iteration's loss: cross-entropy towards the search's policy t over
 * the legal actions, and the value's squared error towards its target,
 *
 *   L = -mean(sum(t * logp)) + valueCoef * mean((v - target)^2)
 *   dL/dlogits = (p * sum(t) - t) / batch
 *
 * as a gradient graph's policy term (onnxruntime) and in tfjs (the fallback).
 */

/** The policy target's input: the search's improved policy, 0 on illegal actions. */
export const POLICY_TARGET = 'policy_target';

/** The gradient graph's policy term of expert iteration. */
export function searchTargetTerm(valueCoef: number): PolicyTerm {
  const t = POLICY_TARGET;
  const keep0 = { keepdims: 0 };
  return policyTerm(
    {
      name: 'search-targets',
      valueCoef,
      inputs: [{ name: t, width: NUM_ACTIONS, doc: 'policy targets, 0 on illegal actions' }],
      stats: [],
    },
    ({ add, mean }) => {
      add('Mul', [t, 'log_probs'], 'target_log_probs');
      add('ReduceSum', ['target_log_probs', 'axis_1'], 'row_cross', keep0);
      mean('row_cross', 'mean_cross');
      add('Neg', ['mean_cross'], 'policy_loss');
      add('ReduceSum', [t, 'axis_1'], 'target_mass'); // [batch, 1]
      add('Mul', ['probs', 'target_mass'], 'probs_mass');
      add('Sub', ['probs_mass', t], 'logits_error');
      add('Mul', ['logits_error', 'inv_batch'], 'd_masked_logits');
    },
  );
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
