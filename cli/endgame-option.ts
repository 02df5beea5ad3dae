import { DEFAULT_ENDGAME_SEEDS, MAX_ENDGAME_SEEDS } from '../solve/endgame/cache/table-cache.ts';
import { UsageError } from './fail.ts';

/** The `--endgame` option of the commands that solve (`solve`, `review`; eval's `--review-endgame`). */
export const endgameOption = {
  type: 'number',
  default: DEFAULT_ENDGAME_SEEDS,
  describe:
    'look up every board of at most this many seeds in an endgame table (built on first use, about a minute for 16, then cached); 0: none',
} as const;

/** The seeds of an `--endgame` argument (0: no table). Throws a UsageError naming the option. */
export function endgameSeedsFromArg(option: string, seeds: number): number {
  if (!(Number.isInteger(seeds) && seeds >= 0 && seeds <= MAX_ENDGAME_SEEDS)) {
    throw new UsageError(
      `${option} must be an integer in 0..${MAX_ENDGAME_SEEDS}, got ${String(seeds)}`,
    );
  }
  return seeds;
}
