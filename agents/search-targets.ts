/**
 * Training targets from a root search, as pure functions of the root's
 * statistics over the six actions (arrays of length 6, legal actions given as a
 * bit mask): AlphaZero's visit-count policy, and the completed-Q policy
 * improvement of Gumbel MuZero ("Policy improvement by planning with Gumbel",
 * Danihelka et al. 2022), with the semantics of DeepMind's mctx
 * (`qtransforms.qtransform_completed_by_mix_value` and the action weights of
 * `policies.gumbel_muzero_policy`), restricted to the legal actions. Every
 * policy returned sums to 1 over the legal actions and is exactly 0 elsewhere.
 */

import { core } from '../env/index.ts';
import { softmaxInto } from '../models/softmax.ts';

const { ACTIONS } = core;

function isLegal(mask: number, action: number): boolean {
  return (mask & (1 << action)) !== 0;
}

function checkMask(mask: number): void {
  if (!(Number.isInteger(mask) && mask > 0 && mask < 1 << ACTIONS)) {
    throw new RangeError(`the legal actions must be a non-empty 6-bit mask, got ${mask}`);
  }
}

/**
 * Visit counts as a policy target: visits^(1/temperature) normalised over the
 * legal actions. Temperature 0 puts all the weight on the most visited actions
 * (shared equally on a tie); no visits at all gives uniform over the legal
 * actions.
 */
export function visitCountTargets(
  visits: ArrayLike<number>,
  legalMask: number,
  temperature = 1,
): Float64Array {
  checkMask(legalMask);
  if (!(temperature >= 0 && Number.isFinite(temperature))) {
    throw new RangeError(`the temperature must be a finite number >= 0, got ${temperature}`);
  }
  const out = new Float64Array(ACTIONS);
  let most = 0;
  for (let a = 0; a < ACTIONS; a++) {
    if (isLegal(legalMask, a)) most = Math.max(most, visits[a] as number);
  }
  for (let a = 0; a < ACTIONS; a++) {
    if (!isLegal(legalMask, a)) continue;
    const n = visits[a] as number;
    if (!(n >= 0)) throw new RangeError(`visits must be >= 0, got ${n} for action ${a}`);
    // Scaled by the largest count so that large counts with a small temperature stay finite.
    out[a] =
      most === 0 ? 1 : temperature === 0 ? (n === most ? 1 : 0) : (n / most) ** (1 / temperature);
  }
  return normalise(out);
}

function normalise(weights: Float64Array): Float64Array {
  let sum = 0;
  for (let a = 0; a < ACTIONS; a++) sum += weights[a] as number;
  for (let a = 0; a < ACTIONS; a++) weights[a] = (weights[a] as number) / sum;
  return weights;
}

/** Softmax of `logits` over the legal actions; exactly 0 elsewhere (into `out` if given). */
export function legalSoftmax(
  logits: ArrayLike<number>,
  legalMask: number,
  out: Float64Array = new Float64Array(ACTIONS),
): Float64Array {
  checkMask(legalMask);
  softmaxInto(logits, 0, legalMask, out, 0);
  return out;
}

// Scratch for the priors inside mixedValue: a root search calls it every simulation.
const mixPriors = new Float64Array(ACTIONS);

/** What the completed-Q transform needs to know of a searched root. */
export interface RootStatistics {
  /** The legal actions as a bit mask. */
  readonly legalMask: number;
  /** The network's policy logits (only the legal ones are read). */
  readonly logits: ArrayLike<number>;
  /** Visits of each action. */
  readonly visits: ArrayLike<number>;
  /** Mean value of each visited action for the player to move (unvisited ones are not read). */
  readonly q: ArrayLike<number>;
  /** The network's value of the root for the player to move. */
  readonly rawValue: number;
}

/** The constants of mctx's `qtransform_completed_by_mix_value`, with its defaults. */
export interface CompletedQOptions {
  /** c_scale of the paper (default 0.1). */
  readonly valueScale?: number;
  /** c_visit of the paper (default 50). */
  readonly maxVisitInit?: number;
  /** Rescale the completed Q-values to [0, 1] by their min and max first (default true). */
  readonly rescale?: boolean;
  /** Smallest denominator of the rescaling (default 1e-8). */
  readonly epsilon?: number;
}

/**
 * The mixed value of the paper's Appendix D: the raw value interpolated with
 * the prior-weighted mean Q of the visited actions,
 * (v + N sum_{visited} p(a) q(a) / sum_{visited} p(a)) / (N + 1), with N the
 * total visits and p = softmax(logits) over the legal actions (`priors`, if
 * the caller has it already: a root search's logits stay the same from one
 * simulation to the next).
 */
export function mixedValue(
  root: RootStatistics,
  priors: ArrayLike<number> = legalSoftmax(root.logits, root.legalMask, mixPriors),
): number {
  const { legalMask, visits, q, rawValue } = root;
  let total = 0;
  let visitedPrior = 0;
  let weighted = 0;
  for (let a = 0; a < ACTIONS; a++) {
    if (!isLegal(legalMask, a)) continue;
    const n = visits[a] as number;
    total += n;
    if (n > 0) {
      // As mctx: a visited action with prior 0 still counts (no 0/0).
      const p = Math.max(priors[a] as number, Number.MIN_VALUE);
      visitedPrior += p;
      weighted += p * (q[a] as number);
    }
  }
  if (total === 0) return rawValue;
  return (rawValue + (total * weighted) / visitedPrior) / (total + 1);
}

/**
 * Completed Q-values: q(a) for visited legal actions, the mixed value for the
 * unvisited ones, 0 for illegal ones (into `out` if given; `priors`, the
 * softmax of the logits over the legal actions, if known).
 */
export function completedQ(
  root: RootStatistics,
  out: Float64Array = new Float64Array(ACTIONS),
  priors?: ArrayLike<number>,
): Float64Array {
  checkMask(root.legalMask);
  const fill = mixedValue(root, priors);
  for (let a = 0; a < ACTIONS; a++) {
    out[a] = !isLegal(root.legalMask, a)
      ? 0
      : (root.visits[a] as number) > 0
        ? (root.q[a] as number)
        : fill;
  }
  return out;
}

/**
 * sigma(completed Q) of the paper: the completed Q-values (rescaled to [0, 1]
 * by their min and max over the legal actions, by default) times
 * (maxVisitInit + max visits) x valueScale; 0 on illegal actions (into `out`
 * if given; `priors` as completedQ's).
 */
export function transformedCompletedQ(
  root: RootStatistics,
  options: CompletedQOptions = {},
  out: Float64Array = new Float64Array(ACTIONS),
  priors?: ArrayLike<number>,
): Float64Array {
  const { valueScale = 0.1, maxVisitInit = 50, rescale = true, epsilon = 1e-8 } = options;
  const q = completedQ(root, out, priors);
  const { legalMask, visits } = root;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let maxVisits = 0;
  for (let a = 0; a < ACTIONS; a++) {
    if (!isLegal(legalMask, a)) continue;
    min = Math.min(min, q[a] as number);
    max = Math.max(max, q[a] as number);
    maxVisits = Math.max(maxVisits, visits[a] as number);
  }
  const scale = (maxVisitInit + maxVisits) * valueScale;
  const range = Math.max(max - min, epsilon);
  for (let a = 0; a < ACTIONS; a++) {
    if (!isLegal(legalMask, a)) continue;
    const value = rescale ? ((q[a] as number) - min) / range : (q[a] as number);
    q[a] = scale * value;
  }
  return q;
}

/**
 * Gumbel MuZero's improved policy: softmax(logits + sigma(completed Q)) over
 * the legal actions, exactly 0 elsewhere. A training target that improves on
 * the prior even with a handful of simulations (unvisited actions keep their
 * prior's share, shifted by the mixed value).
 */
export function completedQPolicy(
  root: RootStatistics,
  options: CompletedQOptions = {},
): Float64Array {
  const sigma = transformedCompletedQ(root, options);
  const scores = new Float64Array(ACTIONS);
  for (let a = 0; a < ACTIONS; a++) {
    if (isLegal(root.legalMask, a)) scores[a] = (root.logits[a] as number) + (sigma[a] as number);
  }
  return legalSoftmax(scores, root.legalMask);
}
