import { isDeepStrictEqual } from 'node:util';
import type { Options } from 'yargs';
import { z } from 'zod';
import { formatRules, parseRulesText, RulesError, rulesSchema } from '../../env/rules.ts';
import type { AlgorithmDescriptor } from '../algorithm/descriptor.ts';
import { algorithmNames, algorithms, defaultAlgorithm } from '../algorithm/registry.ts';
import { TrainConfigError } from '../errors.ts';
import { type ConfigLayer, type Fields, isFields, withFlagFields } from '../settings/layer.ts';
import {
  RUN_SETTINGS,
  type SettingMeta,
  settingMeta,
  sharedSettingsSchema,
} from '../settings/schema.ts';

/**
 * The flags of `ayoayo train`, derived from the schemas alone (the shared
 * settings', and each registered algorithm's block's): a setting's flag is
 * the kebab-case of its name unless its meta names another, its help is its
 * description with its type's range, its default and that default's unit.
 * Flags are flat: a flag that several algorithms' blocks have (`--epochs`)
 * sets the field of the run's algorithm. The same names in camelCase
 * (`numEnvs`) are the keys of a flat config file's or a sweep's settings.
 */

/** `numEnvs` -> `num-envs`, the spelling of every other flag of the CLI. */
export function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** `num-envs` -> `numEnvs`, the key yargs and flat config files use. */
export function camelCase(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** A setting a flag sets: a shared one or `algorithm` (no algorithm), or a field of an algorithm's block. */
export interface FlagTarget {
  readonly algorithm: AlgorithmDescriptor | null;
  readonly field: string;
  readonly schema: z.ZodType;
  /** Set by an earlier name of its flag (`--num-envs` for `gamesAtOnce`). */
  readonly alias: boolean;
}

export interface SettingFlag {
  /** Without the dashes: `num-envs`. */
  readonly flag: string;
  /** Its own setting first. */
  readonly targets: readonly FlagTarget[];
}

/** The flag of a setting: its meta's, else its name in kebab-case. */
function flagOfSetting(field: string, schema: z.ZodType): string {
  return settingMeta(schema).flag ?? kebabCase(field);
}

/** The flag that sets a block's field (`expertIteration`, `simulations` -> `search-simulations`). */
export function flagOfField(block: string, field: string): string {
  const descriptor = algorithms().find((d) => d.block === block);
  const schema = descriptor?.settings.shape[field];
  return schema === undefined ? kebabCase(field) : flagOfSetting(field, schema);
}

/** Whether a field of `descriptor`'s block answers to `flag` (its own flag, or an alias). */
export function answersTo(descriptor: AlgorithmDescriptor, flag: string): boolean {
  if (Object.hasOwn(descriptor.aliases, flag)) return true;
  return Object.entries(descriptor.settings.shape).some(
    ([field, schema]) => flagOfSetting(field, schema) === flag,
  );
}

/** `algorithm` as a setting: the registered names, the first one the default. */
function algorithmSetting(): z.ZodType {
  const names = algorithms().flatMap((d) => Object.values(d.names));
  const help = names.length > 1 ? `${names.slice(0, -1).join(', ')}, or ${names.at(-1)}` : names[0];
  const [first, ...rest] = algorithmNames() as [string, ...string[]];
  return z
    .enum([first, ...rest])
    .default(defaultAlgorithm())
    .meta({ description: help ?? '' });
}

/** Every flag: the shared settings in the schema's order (`--algorithm` after the run's own), then each algorithm's. */
export function settingFlags(): SettingFlag[] {
  const byFlag = new Map<string, FlagTarget[]>();
  const add = (flag: string, target: FlagTarget) =>
    byFlag.set(flag, [...(byFlag.get(flag) ?? []), target]);
  for (const [field, schema] of Object.entries(sharedSettingsSchema.shape)) {
    add(kebabCase(field), { algorithm: null, field, schema, alias: false });
    if (field === RUN_SETTINGS.at(-1)) {
      const schema = algorithmSetting();
      add('algorithm', { algorithm: null, field: 'algorithm', schema, alias: false });
    }
  }
  for (const descriptor of algorithms()) {
    for (const [field, schema] of Object.entries(descriptor.settings.shape)) {
      add(flagOfSetting(field, schema), { algorithm: descriptor, field, schema, alias: false });
    }
  }
  for (const descriptor of algorithms()) {
    for (const [flag, field] of Object.entries(descriptor.aliases)) {
      const schema = descriptor.settings.shape[field];
      if (schema === undefined) throw new Error(`--${flag} is an alias of ${field}, no setting`);
      add(flag, { algorithm: descriptor, field, schema, alias: true });
    }
  }
  return [...byFlag].map(([flag, targets]) => ({ flag, targets }));
}

type FieldKind = 'number' | 'boolean' | 'string' | 'numbers' | 'strings' | 'rules';

/** What the help and the command line need of a setting's schema. */
interface FieldInfo extends SettingMeta {
  readonly kind: FieldKind;
  readonly choices?: readonly string[];
  readonly nullable: boolean;
  /** The values it takes, in words ("an integer from 1 to 8192"), where its type bounds them. */
  readonly range: string | null;
  readonly defaultValue: unknown;
}

/** The schema inside the defaults and nullables around it. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; nullable: boolean } {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) {
    return unwrap(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodNullable) {
    return { inner: unwrap(schema.unwrap() as z.ZodType).inner, nullable: true };
  }
  return { inner: schema, nullable: false };
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
  const meta = settingMeta(schema);
  const parsed = schema.safeParse(undefined);
  const base = { ...meta, defaultValue: parsed.success ? parsed.data : undefined };
  const { inner, nullable } = unwrap(schema);
  if (inner instanceof z.ZodNumber) {
    return { ...base, kind: 'number', nullable, range: numberRange(inner) };
  }
  if (inner instanceof z.ZodBoolean) return { ...base, kind: 'boolean', nullable, range: null };
  if (inner instanceof z.ZodEnum) {
    const choices = inner.options.map(String);
    return { ...base, kind: 'string', choices, nullable, range: null };
  }
  if (inner instanceof z.ZodArray) {
    const element = unwrap(inner.element as z.ZodType).inner;
    return element instanceof z.ZodNumber
      ? { ...base, kind: 'numbers', nullable, range: `each ${numberRange(element)}` }
      : { ...base, kind: 'strings', nullable, range: null };
  }
  if (inner instanceof z.ZodObject) return { ...base, kind: 'rules', nullable, range: null };
  return { ...base, kind: 'string', nullable, range: null };
}

function describeText(info: FieldInfo): string {
  const list = info.kind === 'numbers' || info.kind === 'strings' ? ' (comma-separated)' : '';
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

/** A flag's text as its setting's value: lists comma-separated ('none': empty), 'none' for null, the rules. */
function fromText(flag: string, info: FieldInfo, value: string): unknown {
  const text = value.trim();
  if (info.kind === 'numbers' || info.kind === 'strings') {
    // An empty list is spelled 'none', as the help shows it.
    const parts = text === 'none' ? [] : text.split(',').map((p) => p.trim());
    if (parts.some((p) => p.length === 0)) {
      throw new TrainConfigError(
        `--${flag} '${text}' has an empty item: give a comma-separated list${text === '' ? ", or 'none' for an empty one" : ''}`,
      );
    }
    return info.kind === 'numbers' ? parts.map(Number) : parts;
  }
  if (info.kind === 'number' && info.nullable) {
    return text === 'none' || text === 'null' ? null : Number(text);
  }
  if (info.kind === 'rules') {
    try {
      return parseRulesText(text);
    } catch (error) {
      if (error instanceof RulesError) throw new TrainConfigError(`--${flag}: ${error.message}`);
      throw error;
    }
  }
  return value;
}

const byKey = (): Map<string, SettingFlag> =>
  new Map(settingFlags().map((f) => [camelCase(f.flag), f]));

/**
 * Settings keyed by their flags in camelCase (`searchSimulations`, as yargs,
 * flat config files and sweeps give them) as a layer of the nested shape:
 * a flag of algorithms' blocks sets its field in each of them, for
 * buildConfig to take the run's. A string where the setting is a list, a
 * nullable number or the rules is read as the flag's text. Keys that are no
 * flag (blocks, unknown keys) stay as they are.
 */
export function layerFromFlags(values: Readonly<Fields>): ConfigLayer {
  const flags = byKey();
  const out: Fields = {};
  const blocks: Record<string, Fields> = {};
  const flagFields = new Map<string, string>();
  /** The flag that set each block's field here, and to what: one setting given twice must agree. */
  const givenBy = new Map<string, { flag: string; value: unknown }>();
  for (const [key, given] of Object.entries(values)) {
    const flag = flags.get(key);
    if (flag === undefined || given === undefined) {
      if (given !== undefined) out[key] = given;
      continue;
    }
    const info = describeField((flag.targets[0] as FlagTarget).schema);
    const value = typeof given === 'string' ? fromText(flag.flag, info, given) : given;
    for (const target of flag.targets) {
      if (target.algorithm === null) {
        out[target.field] = value;
        continue;
      }
      const block = target.algorithm.block;
      const path = `${block}.${target.field}`;
      const before = givenBy.get(path);
      if (before !== undefined && !isDeepStrictEqual(before.value, value)) {
        const setting = `${target.algorithm.title} setting, ${path}`;
        throw new TrainConfigError(twiceMessage(setting, before, { flag: flag.flag, value }));
      }
      givenBy.set(path, { flag: flag.flag, value });
      const fields = blocks[block] ?? {};
      // The setting's own flag wins over an earlier name of it given too.
      if (!(target.alias && target.field in fields)) fields[target.field] = value;
      blocks[block] = fields;
      flagFields.set(`${block}.${target.field}`, flag.flag);
    }
  }
  for (const [block, fields] of Object.entries(blocks)) {
    const nested = out[block];
    out[block] = { ...(isFields(nested) ? nested : {}), ...fields };
  }
  return flagFields.size > 0 ? withFlagFields(out, flagFields) : out;
}

/** Two flags, a setting's own and its earlier name (`--games-at-once`, `--num-envs`), given different values. */
function twiceMessage(
  setting: string,
  a: { readonly flag: string; readonly value: unknown },
  b: { readonly flag: string; readonly value: unknown },
): string {
  const shown = ({ flag, value }: typeof a): string => `--${flag} ${JSON.stringify(value)}`;
  return `${shown(a)} and ${shown(b)} are two names of one ${setting}, given different values: give one of them`;
}

/** The settings given on the command line (yargs' parsed arguments) as a layer. */
export function layerFromArgv(argv: Readonly<Fields>): ConfigLayer {
  const given: Fields = {};
  for (const key of byKey().keys()) if (argv[key] !== undefined) given[key] = argv[key];
  return layerFromFlags(given);
}
