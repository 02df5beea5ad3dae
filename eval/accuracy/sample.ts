import { Random } from '../../env/index.ts';
import type { AccuracySet } from './accuracy-set.ts';

/**
 * `count` positions of a set chosen at random by `seed`, in the set's order:
 * the same seed gives the same positions, so that a sample measured again
 * (each evaluation of a training run) is measured on the same positions.
 * The whole set when it holds no more than `count`.
 */
export function sampleAccuracySet(
  set: AccuracySet,
  count: number,
  seed: number | string,
): AccuracySet {
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(`a sample needs a positive whole number of positions, got ${count}`);
  }
  if (count >= set.positions.length) return set;
  const rng = Random.fromSeed(`${seed}|accuracy-sample`);
  const indices = set.positions.map((_, i) => i);
  // A partial Fisher-Yates shuffle: the first `count` indices are the sample.
  for (let i = 0; i < count; i++) {
    const j = i + rng.int(indices.length - i);
    [indices[i], indices[j]] = [indices[j] as number, indices[i] as number];
  }
  const chosen = new Set(indices.slice(0, count));
  return { ...set, positions: set.positions.filter((_, i) => chosen.has(i)) };
}
