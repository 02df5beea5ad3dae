import * as z from 'zod';
import { describeIssues } from './zod-issues.ts';

/** One rule option: a detail on which written sources of Ayoayo differ (docs/rules.md). */
interface RuleOption {
  /** Every value it takes: booleans (false, true) or words; a rule code numbers them in this order. */
  readonly values: readonly [boolean, boolean] | readonly [string, ...string[]];
  /** Its value under the default rules (Russ). */
  readonly default: boolean | string;
  /** What it decides, for help texts and schemas. */
  readonly description: string;
  /** Each value (in the order of `values`) in words, for a page that tells the rules played. */
  readonly says: readonly string[];
  /**
   * How each value (in the order of `values`) is spelled in cache file names
   * (rulesKey); an empty word leaves the option out of the name, which keeps
   * the names of caches written before the option existed.
   */
  readonly keys: readonly string[];
  /**
   * Set on an option added after files holding rules were first written
   * (policy files, checkpoints, accuracy sets, endgame tables): a file that
   * lacks it reads as its default, as it was played before it existed.
   */
  readonly absentIsDefault?: true;
}

/**
 * The rule options, the one place they are declared: the `Rules` type, their
 * schema, parser, formatter, cache key, equality and the engine's rule code
 * (env/rule-code.ts) all follow from this table. docs/architecture.md, "Adding
 * a rule option", lists what else a new option needs.
 */
export const RULE_OPTIONS = {
  captureSeedStays: {
    values: [false, true],
    default: false,
    description: 'the capturing seed stays in its pit',
    says: ['the capturing seed is captured too', 'the capturing seed stays in its pit'],
    keys: ['seed-captured', 'seed-stays'],
  },
  leftoverTo: {
    values: ['opponent', 'owner'],
    default: 'opponent',
    description: 'who takes the seeds left on the board',
    says: [
      'seeds left at the end go to the player who made the last move',
      'seeds left at the end go to the owner of each row',
    ],
    keys: ['leftover-opponent', 'leftover-owner'],
  },
} as const satisfies Record<string, RuleOption>;

type Options = typeof RULE_OPTIONS;

/** The name of a rule option. */
export type RuleName = keyof Options;

/** A complete set of rule options (see RULE_OPTIONS and docs/rules.md). */
export type Rules = { readonly [K in RuleName]: Options[K]['values'][number] };

/** The option names in table order: the order of formatRules, rulesKey and the code's bits. */
export const RULE_NAMES: readonly RuleName[] = Object.keys(RULE_OPTIONS) as RuleName[];

const option = (name: RuleName): RuleOption => RULE_OPTIONS[name];

/** The position of `value` among the option's values; -1 when it is none of them. */
export function valueIndex(name: RuleName, value: boolean | string): number {
  const values: readonly (boolean | string)[] = option(name).values;
  return values.indexOf(value);
}

/** The rules as [name, value] pairs in table order. */
export function ruleEntries(rules: Rules): [RuleName, boolean | string][] {
  return RULE_NAMES.map((name) => [name, rules[name]]);
}

/** Rules from [name, value] pairs (unvalidated: the caller's values come from the table). */
function fromEntries(entries: readonly (readonly [RuleName, boolean | string])[]): Rules {
  return Object.freeze(Object.fromEntries(entries)) as Rules;
}

/** Russ, Mancala Games (1984). */
export const DEFAULT_RULES: Rules = fromEntries(
  RULE_NAMES.map((name) => [name, option(name).default]),
);

function valueSchema(o: RuleOption): z.ZodType<boolean | string> {
  const values = o.values;
  const schema: z.ZodType<boolean | string> = (
    typeof values[0] === 'boolean' ? z.boolean() : z.enum(values as readonly [string, ...string[]])
  ).describe(o.description);
  return o.absentIsDefault === true ? schema.default(o.default) : schema;
}

type RulesShape = { readonly [K in RuleName]: z.ZodType<Rules[K]> };

/** Complete rule objects, as files and jobs carry them: every option, nothing else. */
export const rulesSchema = z
  .object(
    Object.fromEntries(RULE_NAMES.map((name) => [name, valueSchema(option(name))])) as RulesShape,
  )
  .strict();

const partialRulesSchema = rulesSchema.partial().strict();

export type RulesInput = Partial<Rules>;

export class RulesError extends Error {
  override name = 'RulesError';
}

// Resolved rule objects are cached per input object so that hot callers passing
// the same object do not pay for validation on every call.
const resolved = new WeakMap<object, Rules>();

/** Merges a partial rules object over the defaults; unknown keys or bad values throw. */
export function resolveRules(input?: RulesInput | null): Rules {
  if (input === undefined || input === null || input === DEFAULT_RULES) return DEFAULT_RULES;
  if (typeof input !== 'object')
    throw new RulesError(`rules must be an object, got ${typeof input}`);
  const hit = resolved.get(input);
  if (hit) return hit;
  const parsed = partialRulesSchema.safeParse(input);
  if (!parsed.success) {
    throw new RulesError(`invalid rules: ${describeIssues(parsed.error)}`);
  }
  const given: Partial<Record<RuleName, boolean | string>> = parsed.data;
  const rules = fromEntries(RULE_NAMES.map((name) => [name, given[name] ?? DEFAULT_RULES[name]]));
  resolved.set(input, rules);
  return rules;
}

/**
 * The rule options of `source` alone, resolved: from a flat object that holds
 * them among other fields (a checkpoint's config), or to copy rules into a
 * message without whatever else the object carries.
 */
export function pickRules(source: Rules): Rules {
  return resolveRules(fromEntries(RULE_NAMES.map((name) => [name, source[name]])));
}

/** Whether two rule objects are the same rules. */
export function sameRules(a: Rules, b: Rules): boolean {
  return a === b || RULE_NAMES.every((name) => a[name] === b[name]);
}

/**
 * The rules as one word for caches and file names, e.g.
 * `seed-captured-leftover-opponent` (each option's `keys`): equal for the
 * same rules, different for different ones.
 */
export function rulesKey(rules: Rules): string {
  return RULE_NAMES.map((name) => option(name).keys[valueIndex(name, rules[name])] ?? '')
    .filter((word) => word !== '')
    .join('-');
}

/** Every combination of the options' values (the defaults first), for checks run under each. */
export function everyRules(): Rules[] {
  let all: [RuleName, boolean | string][][] = [[]];
  for (const name of RULE_NAMES) {
    const values = option(name).values;
    all = values.flatMap((value) =>
      all.map((entries): [RuleName, boolean | string][] => [...entries, [name, value]]),
    );
  }
  return all.map((entries) => resolveRules(fromEntries(entries)));
}

/** Parses the CLI form `captureSeedStays=true,leftoverTo=owner`. */
export function parseRulesText(text: string): Rules {
  // Own keys only: `__proto__=1` assigned to a plain object would set its prototype, unseen.
  const out = new Map<string, unknown>();
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0)) {
    const [key, value, ...rest] = part.split('=');
    if (key === undefined || value === undefined || rest.length > 0) {
      throw new RulesError(`invalid rules '${part}': expected key=value`);
    }
    if (out.has(key)) {
      throw new RulesError(`invalid rules '${text}': ${key} is given twice; give each option once`);
    }
    out.set(key, value === 'true' ? true : value === 'false' ? false : value);
  }
  return resolveRules(Object.fromEntries(out) as RulesInput);
}

/** `captureSeedStays=false,leftoverTo=opponent`: the form `parseRulesText` (and `--rules`) reads. */
export function formatRules(rules: Rules): string {
  return ruleEntries(rules)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(',');
}

/** The rules in words, e.g. `the capturing seed is captured too; seeds left at the end go to ...`. */
export function describeRules(rules: Rules): string {
  return RULE_NAMES.map((name) => option(name).says[valueIndex(name, rules[name])] ?? '').join(
    '; ',
  );
}

/**
 * The options for a help text: `captureSeedStays=false|true (the capturing
 * seed stays in its pit), ...`, each option's default first.
 */
export function describeRuleOptions(): string {
  return RULE_NAMES.map((name) => {
    const o = option(name);
    const values = [o.default, ...o.values.filter((v) => v !== o.default)];
    return `${name}=${values.map(String).join('|')} (${o.description})`;
  }).join(', ');
}

/** Each option at a value other than its default: an example for help texts. */
export const OTHER_RULES: Rules = fromEntries(
  RULE_NAMES.map((name) => {
    const o = option(name);
    return [name, o.values.find((v) => v !== o.default) ?? o.default];
  }),
);
