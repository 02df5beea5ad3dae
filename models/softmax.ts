/**
 * The softmax over a position's legal actions, written once: the search's
 * targets, the network evaluator, the policy's move choice and self-play all
 * turn logits into probabilities through it.
 */
import { core } from '../env/index.ts';

const { ACTIONS } = core;

/**
 * Writes the softmax of the 6 logits at `logits[logitsOffset ..]` over the
 * actions of the bit mask `legalMask` into `out[outOffset ..]`: illegal
 * actions get exactly 0, and an empty mask gives all zeros.
 */
export function softmaxInto(
  logits: ArrayLike<number>,
  logitsOffset: number,
  legalMask: number,
  out: { [index: number]: number },
  outOffset: number,
): void {
  let max = Number.NEGATIVE_INFINITY;
  for (let a = 0; a < ACTIONS; a++) {
    const logit = logits[logitsOffset + a] as number;
    if (legalMask & (1 << a) && logit > max) max = logit;
  }
  // The sum is taken before `out` rounds (a Float32Array), as it always was.
  let sum = 0;
  for (let a = 0; a < ACTIONS; a++) {
    const p = legalMask & (1 << a) ? Math.exp((logits[logitsOffset + a] as number) - max) : 0;
    out[outOffset + a] = p;
    sum += p;
  }
  if (sum > 0) {
    for (let a = 0; a < ACTIONS; a++) {
      out[outOffset + a] = (out[outOffset + a] as number) / sum;
    }
  }
}
