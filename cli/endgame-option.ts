import { integerIn } from '../agents/spec-options.ts';
import { DEFAULT_ENDGAME_SEEDS, MAX_ENDGAME_SEEDS } from '../solve/endgame/cache/table-cache.ts';
import { UsageError } from './fail.ts';

/** The `--endgame` option of the commands that solve (`solve`, `review`; eval's `--review-endgame`). */
export const endgameOption = {
  // Read as text: yargs reads `--endgame ''` as 0, which would silently mean no table.
  type: 'string',
  default: String(DEFAULT_ENDGAME_SEEDS),
  describe:
    'look up every board of at most this many seeds in an endgame table (built on first use, about a minute for 16, then cached); 0: none',
} as const;

/** The seeds of an `--endgame` argument (0: no table). Throws a UsageError naming the option. */
export function endgameSeedsFromArg(option: string, seeds: string | number): number {
  const parsed = integerIn(String(seeds).trim(), 0, MAX_ENDGAME_SEEDS);
  if (parsed === null) {
    throw new UsageError(
      `${option} must be an integer in 0..${MAX_ENDGAME_SEEDS} (0: no table), got '${String(seeds)}'`,
    );
  }
  return parsed;
}
