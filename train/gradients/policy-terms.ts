/**
 * The policy's part of a gradient graph (gradient-graph.ts): its inputs, its
 * loss and its gradient with respect to the logits, for the two kinds of
 * update the trainer makes.
 *
 * Expert iteration's cross-entropy towards the search's policy t:
 *   L = -mean(sum(t * logp)),  dL/dlogits = (p * sum(t) - t) / batch
 *
 * PPO's clipped surrogate, or REINFORCE, for the taken action a (one-hot),
 * with advantage A, the rollout's log-probability old, and an entropy bonus:
 *   logp_a = sum(onehot * logp), ratio = exp(logp_a - old)
 *   PPO:       L = -mean(min(ratio A, clip(ratio, 1-c, 1+c) A))
 *              dL/dlogp_a = -ratio A (taken where ratio A <= clip(ratio) A, else
 *              only where 1-c <= ratio <= 1+c) / batch, as tfjs's minimum and
 *              clipByValue route their gradients
 *   REINFORCE: L = -mean(logp_a A), dL/dlogp_a = -A / batch
 *   dlogp_a/dlogits = onehot - p
 *   entropy:   L -= entropyCoef * mean(H), H = -sum(p logp),
 *              dL/dlogits = entropyCoef p (logp + H) / batch
 */
import {
  FLOAT,
  type INodeProto,
  type ITensorProto,
  initializer,
  intAttribute,
} from '../../models/export/onnx-graph.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';

/** Which loss a gradient graph differentiates, with its coefficients. */
export type GradientLoss =
  | { readonly kind: 'search-targets'; readonly valueCoef: number }
  | {
      readonly kind: 'ppo' | 'reinforce';
      readonly valueCoef: number;
      readonly clip: number;
      readonly entropyCoef: number;
    };

/** The graph's data inputs (the weights are inputs too, named as the tfjs layers' variables). */
export const GRADIENT_INPUTS = {
  observation: 'observation',
  mask: 'action_mask',
  valueTarget: 'value_target',
  policyTarget: 'policy_target',
  action: 'action_one_hot',
  oldLogProb: 'old_log_prob',
  advantage: 'advantage',
} as const;

/** A sliced graph's scalar input: each row's weight, 1 / the rows of the whole minibatch. */
export const ROW_WEIGHT = 'row_weight';

/** A data input of the gradient graph: its name, row width and description. */
export interface LossInput {
  readonly name: string;
  readonly width: number;
  readonly doc: string;
}

/** The policy term's own inputs, beside the observation, mask and value target. */
function lossInputs(loss: GradientLoss): LossInput[] {
  if (loss.kind === 'search-targets') {
    return [
      {
        name: GRADIENT_INPUTS.policyTarget,
        width: NUM_ACTIONS,
        doc: 'policy targets, 0 on illegal actions',
      },
    ];
  }
  return [
    { name: GRADIENT_INPUTS.action, width: NUM_ACTIONS, doc: 'the action taken, one-hot' },
    { name: GRADIENT_INPUTS.oldLogProb, width: 1, doc: 'its log-probability in the rollout' },
    { name: GRADIENT_INPUTS.advantage, width: 1, doc: 'its advantage, normalised' },
  ];
}

/** Every data input of the graph of `loss`: the observation, mask and value target, then the policy term's. */
export function dataInputs(inputSize: number, loss: GradientLoss): LossInput[] {
  return [
    { name: GRADIENT_INPUTS.observation, width: inputSize, doc: 'encoded positions' },
    { name: GRADIENT_INPUTS.mask, width: NUM_ACTIONS, doc: '1 where the action is legal, else 0' },
    { name: GRADIENT_INPUTS.valueTarget, width: 1, doc: 'value targets in [-1, 1]' },
    ...lossInputs(loss),
  ];
}

/** The graph's scalar outputs beside the gradients, in the order updaters read them. */
export function lossStats(loss: GradientLoss): string[] {
  const common = ['policy_loss', 'value_loss', 'entropy'];
  return loss.kind === 'search-targets' ? common : [...common, 'approx_kl', 'clip_fraction'];
}

/** Adds one node to the graph under construction; returns its output's name. */
export type AddNode = (
  op: string,
  inputs: string[],
  output: string,
  attrs?: INodeProto['attribute'],
) => string;

/** Adds the nodes of the mean over the minibatch of `input` (every element), as the scalar `output`. */
export type BatchMean = (input: string, output: string) => string;

/**
 * Adds the policy term's nodes: from `log_probs`, `probs`, `p_log_p` (per
 * action, p logp) and the graph's `one`, `inv_batch`, `axis_1`, it writes
 * `policy_loss`, `d_masked_logits` (the gradient with respect to the masked
 * logits) and any statistics of its own, its means taken by `mean`. Returns
 * the initializers it needs.
 */
export function policyTerm(loss: GradientLoss, add: AddNode, mean: BatchMean): ITensorProto[] {
  const keep0 = [intAttribute('keepdims', 0)];
  const t = GRADIENT_INPUTS.policyTarget;
  if (loss.kind === 'search-targets') {
    add('Mul', [t, 'log_probs'], 'target_log_probs');
    add('ReduceSum', ['target_log_probs', 'axis_1'], 'row_cross', keep0);
    mean('row_cross', 'mean_cross');
    add('Neg', ['mean_cross'], 'policy_loss');
    add('ReduceSum', [t, 'axis_1'], 'target_mass'); // [batch, 1]
    add('Mul', ['probs', 'target_mass'], 'probs_mass');
    add('Sub', ['probs_mass', t], 'logits_error');
    add('Mul', ['logits_error', 'inv_batch'], 'd_masked_logits');
    return [];
  }
  const { action, oldLogProb, advantage } = GRADIENT_INPUTS;
  add('Mul', [action, 'log_probs'], 'action_log_probs');
  add('ReduceSum', ['action_log_probs', 'axis_1'], 'log_prob'); // [batch, 1]
  add('Sub', ['log_prob', oldLogProb], 'log_ratio');
  add('Exp', ['log_ratio'], 'ratio');
  add('Sub', ['ratio', 'one'], 'ratio_less_1');
  add('Sub', ['ratio_less_1', 'log_ratio'], 'kl_terms');
  mean('kl_terms', 'approx_kl');
  add('Abs', ['ratio_less_1'], 'ratio_distance');
  add('Greater', ['ratio_distance', 'clip'], 'clipped');
  add('Cast', ['clipped'], 'clipped_float', [intAttribute('to', FLOAT)]);
  mean('clipped_float', 'clip_fraction');
  if (loss.kind === 'ppo') {
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
    add('Cast', ['passes'], 'passes_float', [intAttribute('to', FLOAT)]);
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
  const inits = [
    initializer('clip', [], new Float32Array([loss.clip])),
    initializer('entropy_coef', [], new Float32Array([loss.entropyCoef])),
  ];
  if (loss.kind === 'ppo') {
    inits.push(
      initializer('ratio_low', [], new Float32Array([1 - loss.clip])),
      initializer('ratio_high', [], new Float32Array([1 + loss.clip])),
    );
  }
  return inits;
}
