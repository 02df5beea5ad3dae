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

/**
 * Milliseconds of a duration argument such as `500ms`, `10s`, `1.5m` (a bare
 * number is seconds). Throws a UsageError naming the option.
 */
export function durationFromArg(option: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(String(text).trim());
  const unit = match?.[2] ?? 's';
  const ms =
    match === null
      ? Number.NaN
      : Number(match[1]) * (unit === 'ms' ? 1 : unit === 'm' ? 60_000 : 1000);
  if (!(ms > 0) || !Number.isFinite(ms)) {
    throw new UsageError(
      `invalid ${option} '${String(text)}': expected a positive duration such as 500ms, 10s or 2m`,
    );
  }
  return ms;
}
