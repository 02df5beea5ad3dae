import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { splitAgentList } from '../../agents/spec.ts';
import { parseRulesText, RulesError } from '../../env/rules.ts';
import type { AlgorithmDescriptor } from '../algorithm/descriptor.ts';
import { algorithmNames, algorithms, defaultAlgorithm } from '../algorithm/registry.ts';
import { TrainConfigError } from '../errors.ts';
import { type ConfigLayer, type Fields, isFields } from '../settings/layer.ts';
import { RUN_SETTINGS, settingMeta, sharedSettingsSchema } from '../settings/schema.ts';

/**
 * The flags of `ayoayo train`, derived from the schemas alone (the shared
 * settings', and each registered algorithm's block's): a setting's flag is
 * the kebab-case of its name unless its meta names another (their help:
 * cli/train-flags.ts). Flags are flat: a flag that several algorithms'
 * blocks have (`--epochs`) sets the field of the run's algorithm. The same
 * names in camelCase (`numEnvs`) are the keys of a flat config file's or a
 * sweep's settings.
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

/** What a flag's text is read as: a number, a list, the rules, and whether 'none' is null. */
export type FieldKind =
  | 'number'
  | 'boolean'
  | 'string'
  | 'numbers'
  | 'strings'
  | 'agents'
  | 'rules';

/** The schema inside the defaults and nullables around it. */
export function unwrap(schema: z.ZodType): { inner: z.ZodType; nullable: boolean } {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) {
    return unwrap(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodNullable) {
    return { inner: unwrap(schema.unwrap() as z.ZodType).inner, nullable: true };
  }
  return { inner: schema, nullable: false };
}

/** The kind of a setting's values (the schema inside its defaults), and whether it may be null. */
export function fieldKind(schema: z.ZodType): {
  readonly kind: FieldKind;
  readonly nullable: boolean;
} {
  const { inner, nullable } = unwrap(schema);
  if (inner instanceof z.ZodNumber) return { kind: 'number', nullable };
  if (inner instanceof z.ZodBoolean) return { kind: 'boolean', nullable };
  if (inner instanceof z.ZodArray) {
    const element = unwrap(inner.element as z.ZodType).inner;
    if (element instanceof z.ZodNumber) return { kind: 'numbers', nullable };
    return { kind: settingMeta(schema).agents === true ? 'agents' : 'strings', nullable };
  }
  if (inner instanceof z.ZodObject) return { kind: 'rules', nullable };
  return { kind: 'string', nullable };
}

/** A flag's text as its setting's value: lists comma-separated ('none': empty), 'none' for null, the rules. */
function fromText(
  flag: string,
  info: { readonly kind: FieldKind; readonly nullable: boolean },
  value: string,
): unknown {
  const text = value.trim();
  if (info.kind === 'numbers' || info.kind === 'strings' || info.kind === 'agents') {
    // An empty list is spelled 'none', as the help shows it; agents keep the commas inside one.
    const split = (): string[] => {
      if (info.kind !== 'agents') return text.split(',');
      registerNetworkKinds();
      return splitAgentList([text]);
    };
    const parts = text === 'none' ? [] : split().map((p) => p.trim());
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

/** Every flag by its name in camelCase, as yargs and flat settings key them. */
export const byKey = (): Map<string, SettingFlag> =>
  new Map(settingFlags().map((f) => [camelCase(f.flag), f]));

/**
 * Settings keyed by their flags in camelCase (`searchSimulations`, as yargs,
 * flat config files and sweeps give them) in the nested shape: a flag of
 * algorithms' blocks sets its field in each of them, for buildConfig to take
 * the run's, and `flagFields` says which flag set each. A string where the
 * setting is a list, a nullable number or the rules is read as the flag's
 * text. Keys that are no flag (blocks, unknown keys) stay as they are.
 */
export function nestFlags(values: Readonly<Fields>): {
  readonly settings: ConfigLayer;
  readonly flagFields: Readonly<Record<string, string>>;
} {
  const flags = byKey();
  const out: Fields = {};
  const blocks: Record<string, Fields> = {};
  const flagFields: Record<string, string> = {};
  /** The flag that set each block's field here, and to what: one setting given twice must agree. */
  const givenBy = new Map<string, { flag: string; value: unknown }>();
  for (const [key, given] of Object.entries(values)) {
    const flag = flags.get(key);
    if (flag === undefined || given === undefined) {
      if (given !== undefined) out[key] = given;
      continue;
    }
    const info = fieldKind((flag.targets[0] as FlagTarget).schema);
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
      flagFields[path] = flag.flag;
    }
  }
  for (const [block, fields] of Object.entries(blocks)) {
    const nested = out[block];
    out[block] = { ...(isFields(nested) ? nested : {}), ...fields };
  }
  return { settings: out, flagFields };
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
