import type * as tfType from '@tensorflow/tfjs';
import type { Tf } from '../../models/backend.ts';
import { FLOAT } from '../../models/export/onnx-graph.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { maskedLogits } from '../../models/policy-value-model.ts';
import { type PolicyTerm, policyTerm } from '../gradients/policy-term.ts';
import type { PolicyGradientName } from './settings.ts';

/**
 * PPO's clipped surrogate, or REINFORCE, for the taken action a (one-hot),
 * with advantage A, the rollout's log-probability old, an entropy bonus and
 * the value's squared error towards the return:
 *
 *   logp_a = sum(onehot * logp), ratio = exp(logp_a - old)
 *   PPO:       L = -mean(min(ratio A, clip(ratio, 1-c, 1+c) A))
 *              dL/dlogp_a = -ratio A (taken where ratio A <= clip(ratio) A, else
 *              only where 1-c <= ratio <= 1+c) / batch, as tfjs's minimum and
 *              clipByValue route their gradients
 *   REINFORCE: L = -mean(logp_a A), dL/dlogp_a = -A / batch
 *   dlogp_a/dlogits = onehot - p
 *   entropy:   L -= entropyCoef * mean(H), H = -sum(p logp),
 *              dL/dlogits = entropyCoef p (logp + H) / batch
 *
 * as a gradient graph's policy term (onnxruntime) and in tfjs (the fallback).
 */

/** The term's inputs beside the observation, mask and value target (the return). */
export const POLICY_GRADIENT_INPUTS = {
  action: 'action_one_hot',
  oldLogProb: 'old_log_prob',
  advantage: 'advantage',
} as const;

/** What the loss weighs: which of the two, and its coefficients. */
export interface PolicyGradientLossSettings {
  readonly algorithm: PolicyGradientName;
  readonly clip: number;
  readonly valueCoef: number;
  readonly entropyCoef: number;
}

/** The gradient graph's policy term of PPO or REINFORCE. */
export function policyGradientTerm(settings: PolicyGradientLossSettings): PolicyTerm {
  const { action, oldLogProb, advantage } = POLICY_GRADIENT_INPUTS;
  const ppo = settings.algorithm === 'ppo';
  return policyTerm(
    {
      name: settings.algorithm,
      valueCoef: settings.valueCoef,
      inputs: [
        { name: action, width: NUM_ACTIONS, doc: 'the action taken, one-hot' },
        { name: oldLogProb, width: 1, doc: 'its log-probability in the rollout' },
        { name: advantage, width: 1, doc: 'its advantage, normalised' },
      ],
      stats: ['approx_kl', 'clip_fraction'],
    },
    ({ add, mean, constant }) => {
      add('Mul', [action, 'log_probs'], 'action_log_probs');
      add('ReduceSum', ['action_log_probs', 'axis_1'], 'log_prob'); // [batch, 1]
      add('Sub', ['log_prob', oldLogProb], 'log_ratio');
      add('Exp', ['log_ratio'], 'ratio');
      add('Sub', ['ratio', 'one'], 'ratio_less_1');
      add('Sub', ['ratio_less_1', 'log_ratio'], 'kl_terms');
      mean('kl_terms', 'approx_kl');
      add('Abs', ['ratio_less_1'], 'ratio_distance');
      add('Greater', ['ratio_distance', 'clip'], 'clipped');
      add('Cast', ['clipped'], 'clipped_float', { to: FLOAT });
      mean('clipped_float', 'clip_fraction');
      if (ppo) {
        add('Mul', ['ratio', advantage], 'surrogate');
        add('Clip', ['ratio', 'ratio_low', 'ratio_high'], 'clipped_ratio');
        add('Mul', ['clipped_ratio', advantage], 'clipped_surrogate');
        add('Min', ['surrogate', 'clipped_surrogate'], 'objective');
        mean('objective', 'mean_objective');
        add('Neg', ['mean_objective'], 'policy_loss');
        // d objective / d ratio: A where the unclipped term is the minimum (ties
        // included), else A where the clip lets the ratio through, else 0.
        add('LessOrEqual', ['surrogate', 'clipped_surrogate'], 'unclipped_wins');
        add('GreaterOrEqual', ['ratio', 'ratio_low'], 'above_low');
        add('LessOrEqual', ['ratio', 'ratio_high'], 'below_high');
        add('And', ['above_low', 'below_high'], 'inside');
        add('Or', ['unclipped_wins', 'inside'], 'passes');
        add('Cast', ['passes'], 'passes_float', { to: FLOAT });
        add('Mul', ['passes_float', advantage], 'd_objective_d_ratio');
        add('Mul', ['d_objective_d_ratio', 'ratio'], 'd_objective_d_log_prob');
      } else {
        add('Mul', ['log_prob', advantage], 'objective');
        mean('objective', 'mean_objective');
        add('Neg', ['mean_objective'], 'policy_loss');
        add('Identity', [advantage], 'd_objective_d_log_prob');
      }
      add('Mul', ['d_objective_d_log_prob', 'inv_batch'], 'scaled_objective');
      add('Sub', ['probs', action], 'probs_less_action');
      add('Mul', ['probs_less_action', 'scaled_objective'], 'd_logits_policy');
      // The entropy bonus: its row sum is -H, so logp + H is log_probs - row_sum.
      add('ReduceSum', ['p_log_p', 'axis_1'], 'row_p_log_p'); // [batch, 1]
      add('Sub', ['log_probs', 'row_p_log_p'], 'log_probs_plus_h');
      add('Mul', ['probs', 'log_probs_plus_h'], 'entropy_slope');
      add('Mul', ['entropy_coef', 'inv_batch'], 'entropy_scale');
      add('Mul', ['entropy_slope', 'entropy_scale'], 'd_logits_entropy');
      add('Add', ['d_logits_policy', 'd_logits_entropy'], 'd_masked_logits');
      constant('clip', settings.clip);
      constant('entropy_coef', settings.entropyCoef);
      if (ppo) {
        constant('ratio_low', 1 - settings.clip);
        constant('ratio_high', 1 + settings.clip);
      }
    },
  );
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
  settings: PolicyGradientLossSettings,
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
