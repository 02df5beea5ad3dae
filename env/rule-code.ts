import {
  DEFAULT_RULES,
  RULE_NAMES,
  RULE_OPTIONS,
  type RuleName,
  type Rules,
  RulesError,
  valueIndex,
} from './rules.ts';

/**
 * Rules packed into one small integer for the engine's fast path (`core`):
 * each option in table order takes the bits its values need, holding the
 * index of its value. Callers compute it once (`ruleCode`, when a search or
 * an environment is made) and pass it to every call, so a new option reaches
 * the engine without a new parameter anywhere.
 */
export type RuleCode = number;

interface Field {
  readonly name: RuleName;
  readonly shift: number;
}

const FIELDS: readonly Field[] = (() => {
  let shift = 0;
  return RULE_NAMES.map((name) => {
    const field = { name, shift };
    shift += Math.ceil(Math.log2(RULE_OPTIONS[name].values.length));
    return field;
  });
})();

/** The rule code of `rules`. */
export function ruleCode(rules: Rules): RuleCode {
  let code = 0;
  for (const { name, shift } of FIELDS) {
    const index = valueIndex(name, rules[name]);
    if (index < 0) {
      throw new RulesError(
        `invalid rules: ${name}: ${JSON.stringify(rules[name])} is not one of its values`,
      );
    }
    code |= index << shift;
  }
  return code;
}

/** The bits of a rule code that say option `name` is `value` (for a two-valued option, one bit or none). */
export function ruleBits<K extends RuleName>(name: K, value: Rules[K]): RuleCode {
  const field = FIELDS.find((f) => f.name === name) as Field;
  return valueIndex(name, value) << field.shift;
}

/** The default rules' code: 0, each option's default being its first value. */
export const DEFAULT_RULE_CODE: RuleCode = ruleCode(DEFAULT_RULES);

// The bits the engine tests, one per two-valued option: `(code & BIT) !== 0`.

/** The capturing seed stays in its pit (it is not captured with the facing pit's seeds). */
export const SEED_STAYS: RuleCode = ruleBits('captureSeedStays', true);
/** At the end each player takes the seeds left in their own row (else the last mover takes all). */
export const LEFTOVER_TO_OWNER: RuleCode = ruleBits('leftoverTo', 'owner');
