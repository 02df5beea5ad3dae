import { type Random, sampleDirichlet } from '../../env/index.ts';
import type { PuctTree } from './tree.ts';

/** AlphaZero's exploration noise on the root priors (self-play only). */
export interface RootNoise {
  /** The Dirichlet concentration, > 0. */
  readonly alpha: number;
  /** The noise's share of each prior, in [0, 1]. */
  readonly fraction: number;
}

/** Throws a RangeError naming the bad setting. */
export function checkRootNoise(noise: RootNoise): void {
  if (!(noise.alpha > 0 && noise.fraction >= 0 && noise.fraction <= 1)) {
    throw new RangeError(
      `root noise needs alpha > 0 and a fraction in [0, 1], got ${JSON.stringify(noise)}`,
    );
  }
}

/**
 * Mixes Dirichlet(alpha) noise drawn from `rng` into the priors of the
 * expanded `root`'s children: (1 - fraction) prior + fraction noise.
 */
export function addRootNoise(
  tree: Pick<PuctTree, 'firstChild' | 'childCount' | 'prior'>,
  root: number,
  noise: RootNoise,
  rng: Random,
): void {
  const { alpha, fraction } = noise;
  const first = tree.firstChild[root] as number;
  const shares = sampleDirichlet(rng, alpha, new Float64Array(tree.childCount[root] as number));
  const prior = tree.prior;
  for (let i = 0; i < shares.length; i++) {
    const c = first + i;
    prior[c] = (1 - fraction) * (prior[c] as number) + fraction * (shares[i] as number);
  }
}
