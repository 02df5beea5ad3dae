import { ObservationEncoder } from '../../env/gym/observation.ts';
import { DEFAULT_RULES, Random } from '../../env/index.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { POLICY_TARGET, searchTargetTerm } from '../../train/expert-iteration/loss.ts';
import type { GradientBatch } from '../../train/gradients/onnx-gradients.ts';
import { GRADIENT_INPUTS, type PolicyTerm } from '../../train/gradients/policy-term.ts';
import { POLICY_GRADIENT_INPUTS, policyGradientTerm } from '../../train/ppo/loss.ts';
import { randomPositions } from '../agents/positions.ts';

/** The observation the gradient tests' networks see. */
export const encoder = new ObservationEncoder(
  { encoding: 'counts', lookahead: true },
  DEFAULT_RULES,
);
export const inputSize = encoder.size;

const { observation, mask, valueTarget } = GRADIENT_INPUTS;
const policyTarget = POLICY_TARGET;
const { action, oldLogProb, advantage } = POLICY_GRADIENT_INPUTS;

/** A loss the gradient tests compare: expert iteration's, or PPO's / REINFORCE's with its coefficients. */
export type LossSpec =
  | { readonly kind: 'search-targets'; readonly valueCoef: number }
  | {
      readonly kind: 'ppo' | 'reinforce';
      readonly valueCoef: number;
      readonly clip: number;
      readonly entropyCoef: number;
    };

/** The gradient graph's policy term of `spec`, as its algorithm writes it. */
export function termOf(spec: LossSpec): PolicyTerm {
  return spec.kind === 'search-targets'
    ? searchTargetTerm(spec.valueCoef)
    : policyGradientTerm({ ...spec, algorithm: spec.kind });
}

/**
 * `count` positions from random play as every gradient graph's inputs: random
 * policy targets over the legal actions, a random legal action each, rollout
 * log-probabilities around log(1/2) (so PPO's ratios fall on both sides of its
 * clip), advantages and value targets in [-1, 1].
 */
export function randomMinibatch(seed: number, count: number): GradientBatch {
  const rng = Random.fromSeed(seed);
  const columns = {
    [observation]: new Float32Array(count * inputSize),
    [mask]: new Float32Array(count * NUM_ACTIONS),
    [policyTarget]: new Float32Array(count * NUM_ACTIONS),
    [action]: new Float32Array(count * NUM_ACTIONS),
    [oldLogProb]: new Float32Array(count),
    [advantage]: new Float32Array(count),
    [valueTarget]: new Float32Array(count),
  } as const;
  randomPositions(seed, count).forEach((position, i) => {
    const legal = encoder.encode(position.toState(), columns[observation], i * inputSize);
    let total = 0;
    const actions: number[] = [];
    for (let a = 0; a < NUM_ACTIONS; a++) {
      columns[mask][i * NUM_ACTIONS + a] = (legal >> a) & 1;
      const p = (legal >> a) & 1 ? rng.next() : 0;
      if ((legal >> a) & 1) actions.push(a);
      columns[policyTarget][i * NUM_ACTIONS + a] = p;
      total += p;
    }
    for (let k = i * NUM_ACTIONS; k < (i + 1) * NUM_ACTIONS; k++) {
      columns[policyTarget][k] = (columns[policyTarget][k] as number) / total;
    }
    columns[action][i * NUM_ACTIONS + (actions[rng.int(actions.length)] as number)] = 1;
    columns[oldLogProb][i] = Math.log(0.5) + 2 * rng.next() - 1;
    columns[advantage][i] = 2 * rng.next() - 1;
    columns[valueTarget][i] = 2 * rng.next() - 1;
  });
  return { size: count, columns };
}

/** Largest |a - b| over the largest |a|: the difference relative to the gradient's scale. */
export function relativeDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let diff = 0;
  let scale = 1e-12;
  for (let i = 0; i < a.length; i++) {
    diff = Math.max(diff, Math.abs((a[i] as number) - (b[i] as number)));
    scale = Math.max(scale, Math.abs(a[i] as number));
  }
  return diff / scale;
}
