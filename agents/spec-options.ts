/**
 * The values agent specs share after `kind:` (spec-grammar.ts splits them
 * into fields): bare values first and then `key=value` options (each key
 * once), whole numbers within a range, and durations such as `t=50ms` or
 * `t=2s`. Each kind's parser reads its argument's fields with these, and a
 * kind with options declares them as a zod schema of the option builders
 * below (typed values, each message naming the option and its range), so
 * that a time, a 0/1 switch or a repeated key means the same in every kind.
 * zod's mini build, whose functions a bundle keeps only when used: the
 * browser page reads specs too (the whole of zod is 450 KB minified).
 */
import { en } from 'zod/locales';
import * as z from 'zod/mini';
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
export type SpecOption<T> = z.ZodMiniType<T, string>;

/** An option whose text `read` turns into a value, or null with `message` as the problem. */
function readOption<T>(read: (text: string) => T | null, message: string): SpecOption<T> {
  return z.pipe(
    z.string(),
    z.transform((text: string, ctx) => {
      const value = read(text);
      if (value !== null) return value;
      ctx.issues.push({ code: 'custom', message, input: text });
      return z.NEVER;
    }),
  );
}

/** An option that is a whole number in min..max (`note` follows the range in its message). */
export function integerOption(
  what: string,
  min: number,
  max: number,
  note = '',
): SpecOption<number> {
  return readOption(
    (text) => integerIn(text, min, max),
    `${what} must be an integer in ${min}..${max}${note}`,
  );
}

/** An option that is a decimal number for which `inRange` holds, `range` saying which in its message. */
export function decimalOption(
  what: string,
  range: string,
  inRange: (x: number) => boolean,
): SpecOption<number> {
  return readOption((text) => {
    const x = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
    return inRange(x) ? x : null;
  }, `${what} must be a number ${range}`);
}

/** An option that is a duration (parseDuration), in milliseconds. */
export function durationOption(what: string): SpecOption<number> {
  return readOption(parseDuration, `${what} must be ${DURATION_FORMS}`);
}

/** An on/off option: 1 is true, 0 false. */
export function switchOption(what: string): SpecOption<boolean> {
  return readOption(
    (text) => (text === '1' || text === '0' ? text === '1' : null),
    `${what} must be 0 or 1`,
  );
}

/** zod's messages in English for the problems options do not word themselves (an unknown key). */
const english = en().localeError;

/** A spec's `key=value` options parsed by a kind's schema; a problem throws `fail(why)` naming each option. */
export function parseSpecOptions<S extends z.ZodMiniType>(
  schema: S,
  options: Readonly<Record<string, string>>,
  fail: (why: string) => Error,
): z.output<S> {
  const parsed = schema.safeParse(options, { error: english });
  if (!parsed.success) throw fail(describeIssues(parsed.error, 'options'));
  return parsed.data;
}
