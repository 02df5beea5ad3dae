/**
 * The values agent specs share after `kind:` (spec-grammar.ts splits them
 * into fields): bare values first and then `key=value` options (each key
 * once), whole numbers within a range, and durations such as `t=50ms` or
 * `t=2s`. Each kind's parser reads its argument's fields with these, and a
 * kind with options declares them as a zod schema of the option builders
 * below (typed values, each message naming the option and its range), so
 * that a time, a 0/1 switch or a repeated key means the same in every kind.
 */
// A namespace import: a bundle keeps the parts it uses (`{ z }` keeps all of zod, 450 KB).
import * as z from 'zod';
import { describeIssues } from '../env/zod-issues.ts';
import { type SpecArgument, type SpecField, specFields } from './spec-grammar.ts';

export { isOption } from './spec-grammar.ts';

/** The fields of a spec argument: the bare ones, in order, and the options by key. */
export interface SpecFields {
  readonly bare: readonly string[];
  readonly options: Readonly<Record<string, string>>;
}

/**
 * An argument's fields (spec-grammar.ts) as bare fields and key=value
 * options (both trimmed); a key given twice is refused with `fail(why)`,
 * since the last one would win unseen.
 */
export function fieldOptions(
  fields: readonly SpecField[],
  fail: (why: string) => Error,
): SpecFields {
  const bare: string[] = [];
  const options = new Map<string, string>();
  for (const { key, value } of fields) {
    if (key === null) {
      bare.push(value);
      continue;
    }
    const earlier = options.get(key);
    if (earlier !== undefined) {
      throw fail(
        `${key} is given twice (${key}=${earlier} and ${key}=${value}); give each option once`,
      );
    }
    options.set(key, value);
  }
  return { bare, options: Object.fromEntries(options) };
}

/** fieldOptions of the fields of `text` (`a,b=1,c=2`). */
export function splitFields(text: string, fail: (why: string) => Error): SpecFields {
  return fieldOptions(specFields(text), fail);
}

/** The argument, trimmed, of a kind that needs one (a path, a command); else throws `fail(why)`. */
export function requiredArgument(
  argument: SpecArgument | null,
  why: string,
  fail: (why: string) => Error,
): string {
  const text = argument?.text.trim() ?? '';
  if (text.length === 0) throw fail(why);
  return text;
}

/** The option keys the fields of `text` give, in order (without checking them). */
export function optionKeys(text: string | null): string[] {
  if (text === null) return [];
  return specFields(text).flatMap(({ key }) => (key === null ? [] : [key]));
}

/** A whole number in plain digits within min..max, else null. */
export function integerIn(text: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

/**
 * The longest time an agent may think about one move: ten minutes. An agent
 * from a queue job holds a worker for as long as it thinks, so every time
 * has a bound.
 */
export const MAX_MOVE_MS = 600_000;

/** What a duration looks like, for error messages. */
export const DURATION_FORMS = `a positive time up to ${MAX_MOVE_MS / 1000}s, such as 50ms or 2s`;

/** The milliseconds of a positive duration up to MAX_MOVE_MS, such as `50ms`, `1.5s` or `2s`, else null. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(text);
  if (match === null) return null;
  const ms = Number(match[1]) * (match[2] === 's' ? 1000 : 1);
  return ms > 0 && ms <= MAX_MOVE_MS ? ms : null;
}

/** A spec option's text parsed into a typed value, its message naming the option and its range. */
export type SpecOption<T> = z.ZodType<T, string>;

/** An option that is a whole number in min..max (`note` follows the range in its message). */
export function integerOption(
  what: string,
  min: number,
  max: number,
  note = '',
): SpecOption<number> {
  return z.string().transform((text, ctx) => {
    const n = integerIn(text, min, max);
    if (n !== null) return n;
    ctx.addIssue({
      code: 'custom',
      message: `${what} must be an integer in ${min}..${max}${note}`,
    });
    return z.NEVER;
  });
}

/** An option that is a decimal number for which `inRange` holds, `range` saying which in its message. */
export function decimalOption(
  what: string,
  range: string,
  inRange: (x: number) => boolean,
): SpecOption<number> {
  return z.string().transform((text, ctx) => {
    const x = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
    if (inRange(x)) return x;
    ctx.addIssue({ code: 'custom', message: `${what} must be a number ${range}` });
    return z.NEVER;
  });
}

/** An option that is a duration (parseDuration), in milliseconds. */
export function durationOption(what: string): SpecOption<number> {
  return z.string().transform((text, ctx) => {
    const ms = parseDuration(text);
    if (ms !== null) return ms;
    ctx.addIssue({ code: 'custom', message: `${what} must be ${DURATION_FORMS}` });
    return z.NEVER;
  });
}

/** An on/off option: 1 is true, 0 false. */
export function switchOption(what: string): SpecOption<boolean> {
  return z.string().transform((text, ctx) => {
    if (text === '1' || text === '0') return text === '1';
    ctx.addIssue({ code: 'custom', message: `${what} must be 0 or 1` });
    return z.NEVER;
  });
}

/** A spec's `key=value` options parsed by a kind's schema; a problem throws `fail(why)` naming each option. */
export function parseSpecOptions<S extends z.ZodType>(
  schema: S,
  options: Readonly<Record<string, string>>,
  fail: (why: string) => Error,
): z.output<S> {
  const parsed = schema.safeParse(options);
  if (!parsed.success) throw fail(describeIssues(parsed.error, 'options'));
  return parsed.data;
}
