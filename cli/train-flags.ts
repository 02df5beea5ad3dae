import type { Options } from 'yargs';
import { z } from 'zod';
import { formatRules, rulesSchema } from '../env/rules.ts';
import type { AlgorithmDescriptor } from '../train/algorithm/descriptor.ts';
import {
  type FieldKind,
  type FlagTarget,
  fieldKind,
  flagOfField,
  type SettingFlag,
  settingFlags,
  unwrap,
} from '../train/config/flags.ts';
import { type SettingMeta, settingMeta } from '../train/settings/schema.ts';

/**
 * The help of `ayoayo train`'s flags (train/config/flags.ts), from the
 * schemas alone: a setting's description with its type's range, its
 * default and that default's unit, grouped by the algorithm it applies to.
 */

/** What the help and the command line need of a setting's schema. */
interface FieldInfo extends SettingMeta {
  readonly kind: FieldKind;
  readonly choices?: readonly string[];
  readonly nullable: boolean;
  /** The values it takes, in words ("an integer from 1 to 8192"), where its type bounds them. */
  readonly range: string | null;
  readonly defaultValue: unknown;
}

/** A number's bounds in words: "an integer from 1 to 8192", "a number above 0, up to 1". */
function numberRange(schema: z.ZodNumber): string {
  const what = schema.isInt ? 'an integer' : 'a number';
  const bound = (value: number | null): value is number =>
    value !== null && Math.abs(value) < Number.MAX_SAFE_INTEGER;
  // A bound the schema itself refuses is exclusive (`.positive()`: above 0).
  const { minValue: min, maxValue: max } = schema;
  const low = !bound(min)
    ? null
    : schema.safeParse(min).success
      ? `${min}`
      : schema.isInt
        ? `${min + 1}`
        : `above ${min}`;
  const high = !bound(max)
    ? null
    : schema.safeParse(max).success
      ? `${max}`
      : schema.isInt
        ? `${max - 1}`
        : `below ${max}`;
  if (low === null) return high === null ? what : `${what}, at most ${high}`;
  if (low.startsWith('above'))
    return high === null ? `${what} ${low}` : `${what} ${low}, at most ${high}`;
  return high === null ? `${what}, at least ${low}` : `${what} from ${low} to ${high}`;
}

function describeField(schema: z.ZodType): FieldInfo {
  const parsed = schema.safeParse(undefined);
  const base = {
    ...settingMeta(schema),
    ...fieldKind(schema),
    defaultValue: parsed.success ? parsed.data : undefined,
  };
  const { inner } = unwrap(schema);
  if (inner instanceof z.ZodNumber) return { ...base, range: numberRange(inner) };
  if (inner instanceof z.ZodEnum)
    return { ...base, choices: inner.options.map(String), range: null };
  if (inner instanceof z.ZodArray) {
    const element = unwrap(inner.element as z.ZodType).inner;
    return {
      ...base,
      range: element instanceof z.ZodNumber ? `each ${numberRange(element)}` : null,
    };
  }
  return { ...base, range: null };
}

function describeText(info: FieldInfo): string {
  const list =
    info.kind === 'numbers' || info.kind === 'strings' || info.kind === 'agents'
      ? ' (comma-separated)'
      : '';
  const rules =
    info.kind === 'rules'
      ? ' (option=value pairs, comma-separated, as every command takes them; options not given keep their defaults)'
      : '';
  const range = info.range === null ? '' : `; ${info.range}`;
  const text = `${info.description}${list}${rules}${range}`;
  if (!info.nullable) return text;
  // On the command line null is spelled 'none'.
  return info.description.includes('(null:')
    ? text.replace('(null:', "('none':")
    : `${text} ('none' for no limit)`;
}

function valueText(value: unknown, unit: string | undefined): string {
  const rules = rulesSchema.safeParse(value);
  if (rules.success) return formatRules(rules.data);
  const empty = value === null || (Array.isArray(value) && value.length === 0);
  const shown = empty ? 'none' : Array.isArray(value) ? value.join(',') : String(value);
  return unit !== undefined && !empty ? `${shown} ${unit}` : shown;
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

const SHARED_GROUP = 'Training settings (override the preset and --config):';

function groupOf(descriptor: AlgorithmDescriptor): string {
  const names = Object.keys(descriptor.names).join(' or ');
  return `${capitalized(descriptor.title)} settings (--algorithm ${names}):`;
}

const namesOf = (target: FlagTarget): string =>
  target.algorithm === null ? '' : Object.keys(target.algorithm.names).join(', ');

/** A flag's help: its setting's description and range, or each algorithm's when it sets a field of several. */
function flagHelp({ targets }: SettingFlag): Options {
  const infos = targets.map((t) => describeField(t.schema));
  const info = infos[0] as FieldInfo;
  const primary = targets[0] as FlagTarget;
  const unit = info.unit;
  const describe =
    targets.length === 1
      ? describeText(info)
      : targets
          .map((t, i) =>
            t.alias
              ? `${namesOf(t)}: the same as --${flagOfField(t.algorithm?.block ?? '', t.field)}`
              : `${namesOf(t)}: ${describeText(infos[i] as FieldInfo)}`,
          )
          .join('; ');
  const defaults = [...new Set(infos.map((i) => valueText(i.defaultValue, unit)))];
  const spansAlgorithms = targets.length > 1 && !targets.some((t) => t.alias);
  return {
    describe,
    defaultDescription:
      defaults.length === 1
        ? (defaults[0] as string)
        : targets
            .map((t, i) => `${namesOf(t)} ${valueText(infos[i]?.defaultValue, unit)}`)
            .join('; '),
    type:
      info.kind === 'number' && !info.nullable
        ? 'number'
        : info.kind === 'boolean'
          ? 'boolean'
          : 'string',
    group:
      primary.algorithm === null || spansAlgorithms ? SHARED_GROUP : groupOf(primary.algorithm),
    ...(info.choices ? { choices: [...info.choices] } : {}),
  };
}

/**
 * yargs options for every flag, with the schemas' descriptions, ranges,
 * defaults and units as help, grouped by the algorithm they apply to. No
 * yargs default is set, so that a flag overrides the preset and --config
 * only when it is given; yargs also accepts the camelCase spelling and fills
 * in the camelCase key.
 */
export function configFlags(): Record<string, Options> {
  return Object.fromEntries(settingFlags().map((f) => [f.flag, flagHelp(f)]));
}
