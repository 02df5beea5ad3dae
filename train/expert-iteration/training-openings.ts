import { OpeningSampler } from '../../env/gym/opening.ts';
import { core, type Random, type Rules } from '../../env/index.ts';
import { isBalancedState } from '../../eval/openings.ts';

/** Redraws before a balanced opening is given up on (the last draw is kept). */
const BALANCE_ATTEMPTS = 50;

export interface OpeningDistribution {
  /** Fewest random plies. */
  readonly minPlies: number;
  /** Most random plies (uniform over minPlies..maxPlies). */
  readonly maxPlies: number;
  /** Redraw until a depth-4 search rates the position within 4 seeds (eval/openings.ts). */
  readonly balanced: boolean;
}

/**
 * Starting positions of training games: a number of random plies drawn from a
 * range, so that the policy meets early positions of every depth rather than
 * one (a policy trained from 2-ply openings alone was much weaker from 4-ply
 * ones), optionally balanced as the tournament's openings are.
 */
export class TrainingOpenings {
  readonly #sampler: OpeningSampler;
  readonly #start = core.setInitial(new Uint8Array(core.STATE_SIZE));

  constructor(
    private readonly distribution: OpeningDistribution,
    private readonly rules: Rules,
  ) {
    if (distribution.maxPlies < distribution.minPlies) {
      throw new RangeError(
        `opening plies: max ${distribution.maxPlies} is below min ${distribution.minPlies}`,
      );
    }
    this.#sampler = new OpeningSampler(rules);
  }

  /** Writes a fresh opening into `out` (16 bytes), drawing from `rng`; returns its plies. */
  draw(out: Uint8Array, rng: Random): number {
    const { minPlies, maxPlies, balanced } = this.distribution;
    for (let attempt = 0; ; attempt++) {
      const plies = minPlies + rng.int(maxPlies - minPlies + 1);
      const played = this.#sampler.draw(out, this.#start, plies, rng);
      if (!balanced || played === 0 || attempt + 1 >= BALANCE_ATTEMPTS) return played;
      if (isBalancedState(out, this.rules)) return played;
    }
  }
}
