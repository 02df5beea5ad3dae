import {
  DEFAULT_RULES,
  describeRuleOptions,
  formatRules,
  OTHER_RULES,
  type Outcome,
  type Position,
  parsePosition,
  parseRulesText,
  type Rules,
  START_NOTATION,
} from '../env/index.ts';
import { UsageError } from './fail.ts';

/** The `--rules` option of commands that play Ayoayo (see docs/rules.md, "Rule options"). */
export const rulesOption = {
  type: 'string',
  describe: `rule options (docs/rules.md): ${describeRuleOptions()}; e.g. ${formatRules(OTHER_RULES)} (default: Russ, the first value of each)`,
} as const;

/** How a position argument is described in --help. */
export const positionDescription = `a position in notation: pits 0..5 / pits 6..11 / store0-store1 / player to move, e.g. ${START_NOTATION}`;

/** The rules of a `--rules` argument; the defaults when it is absent. Throws RulesError. */
export function rulesFromArg(text: string | undefined): Rules {
  return text === undefined ? DEFAULT_RULES : parseRulesText(text);
}

/** The position of a notation argument; the start when it is absent. Throws PositionError. */
export function positionFromArg(text: string | undefined): Position {
  return parsePosition(text ?? START_NOTATION);
}

/**
 * The position argument of a command, also when it comes after `--` (yargs
 * leaves words after `--` in `_`, not in the positional, and the start position
 * would be shown instead). More than one position is a usage error.
 */
export function positionText(
  positional: string | undefined,
  rest: readonly (string | number)[],
): string | undefined {
  const words = [...(positional !== undefined ? [positional] : []), ...rest.slice(1).map(String)];
  if (words.length > 1) {
    throw new UsageError(`expected one position, got ${words.length}: ${words.join(' ')}`);
  }
  return words[0];
}

/** `player 0 wins 26-22` or `draw 24-24`. */
export function describeOutcome(result: Outcome): string {
  const [s0, s1] = result.scores;
  return result.winner === null ? `draw ${s0}-${s1}` : `player ${result.winner} wins ${s0}-${s1}`;
}

/** A unit of a duration argument, in milliseconds. */
const DURATION_UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
};

/** The longest budget a duration argument gives the solver: a day, whatever the unit. */
export const MAX_DURATION_MS = 24 * 3_600_000;

const DURATION_FORMS =
  'a duration above 0 and up to 24h, such as 500ms, 10s, 2m or 1.5h (a bare number is seconds)';

/**
 * A duration option: `nargs: 1` hands it the next word whatever it looks
 * like, so that `--time -1s` reaches durationFromArg (yargs read `-1s` as the
 * flags -1 and -s).
 */
export function durationFlag(fallback: string, describe: string) {
  return { type: 'string', nargs: 1, default: fallback, describe } as const;
}

/**
 * Milliseconds of a duration argument such as `500ms`, `10s`, `2m`, `1.5h`
 * (a bare number is seconds), above 0 and up to MAX_DURATION_MS. Throws a
 * UsageError naming the option, the value and what is accepted.
 */
export function durationFromArg(option: string, text: string): number {
  const match = /^(\d+(?:\.\d*)?|\.\d+)\s*(ms|s|m|min|h)?$/.exec(String(text).trim());
  const ms =
    match === null ? Number.NaN : Number(match[1]) * (DURATION_UNITS[match[2] ?? 's'] as number);
  if (!(ms > 0 && ms <= MAX_DURATION_MS)) {
    throw new UsageError(`invalid ${option} '${String(text)}': expected ${DURATION_FORMS}`);
  }
  return ms;
}
