import { closest, distance } from 'fastest-levenshtein';
import { z } from 'zod';
import { describeIssues, type IssueList } from '../../env/zod-issues.ts';
import type { AlgorithmDescriptor } from '../algorithm/descriptor.ts';
import { algorithmNamed, algorithmNames, algorithmOf, algorithms } from '../algorithm/registry.ts';
import { TrainConfigError } from '../errors.ts';
import { type Fields, isFields } from '../settings/layer.ts';
import { RUN_SETTINGS, sharedSettingsSchema, type TrainConfig } from '../settings/schema.ts';
import { camelCase, flagOfField, settingFlags } from './flags.ts';
import { upgradeSaved } from './legacy.ts';

/**
 * A whole config checked against the schema of its algorithm (the shared
 * settings, `algorithm`, the algorithm's block), every problem named by its
 * path: a block's field with its flag, an unknown key with the nearest known
 * one, another algorithm's settings with what the run's algorithm does
 * instead.
 */

export type Issue = IssueList['issues'][number];

/** The algorithm whose block of settings is `key`, if any. */
export const blockOwner = (key: string): AlgorithmDescriptor | undefined =>
  algorithms().find((d) => d.block === key);

const namesOf = (descriptor: AlgorithmDescriptor): string =>
  Object.keys(descriptor.names).join(' or ');

/** How a setting is named in messages: its path, and its flag where it is a known field of a block. */
export function settingName(path: readonly PropertyKey[]): string {
  const [block, field] = path;
  const name = path.map(String).join('.');
  if (typeof block !== 'string' || typeof field !== 'string' || path.length !== 2) return name;
  const owner = blockOwner(block);
  if (owner === undefined || !Object.hasOwn(owner.settings.shape, field)) return name;
  return `${name} (--${flagOfField(block, field)})`;
}

/** The one of `known` that `key` is a slip of the keyboard away from (a third of its letters, 1 to 3 edits), if any. */
function nearest(key: string, known: readonly string[]): string | null {
  if (known.length === 0) return null;
  const best = closest(key, [...known]);
  const near = Math.min(3, Math.max(1, Math.floor(key.length / 3)));
  return distance(key, best) <= near ? best : null;
}

/** An unknown key's message, suggesting the nearest of the keys known where it is. */
function unknownSetting(key: string, known: readonly string[]): string {
  const near = nearest(key, known);
  return `unknown setting${near === null ? '' : ` (did you mean ${near}?)`}`;
}

/** The fields of the object `schema` stands for (under defaults, nullables and transforms), if it is one. */
function objectShape(schema: z.ZodType | undefined): Readonly<Record<string, z.ZodType>> | null {
  let inner: unknown = schema;
  for (;;) {
    if (
      inner instanceof z.ZodDefault ||
      inner instanceof z.ZodOptional ||
      inner instanceof z.ZodNullable
    ) {
      inner = inner.unwrap();
    } else if (inner instanceof z.ZodPipe) {
      inner = inner.in;
    } else {
      break;
    }
  }
  return inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType>) : null;
}

/** The keys `schema` knows at `path` (an object setting's options, a block's fields). */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let shape = objectShape(schema);
  for (const key of path) shape = objectShape(shape?.[String(key)]);
  return shape === null ? [] : Object.keys(shape);
}

/**
 * zod's problems with each unknown key as a problem of its own, at its path,
 * with the nearest known key there (at the top, also the flags' names in
 * camelCase that set `descriptor`'s settings, as config files may give them).
 */
function namingUnknownKeys(
  issues: readonly z.core.$ZodIssue[],
  schema: z.ZodType,
  descriptor: AlgorithmDescriptor,
): Issue[] {
  return issues.flatMap((issue): Issue[] => {
    if (issue.code !== 'unrecognized_keys') return [issue];
    const known = keysAt(schema, issue.path);
    // A block's field under its flag's name at the top: what a flat file or a sweep would give.
    const flagged = new Map<string, string>();
    if (issue.path.length === 0) {
      for (const { flag, targets } of settingFlags()) {
        if (targets.some((t) => t.algorithm === null || t.algorithm === descriptor)) {
          known.push(camelCase(flag));
        }
        const own = targets.find((t) => t.algorithm === descriptor);
        if (own !== undefined) flagged.set(camelCase(flag), `${descriptor.block}.${own.field}`);
      }
    }
    return issue.keys.map((key) => {
      const nested = flagged.get(key);
      return {
        path: [...issue.path, key],
        message:
          nested === undefined
            ? unknownSetting(key, known)
            : `unknown setting here: a flag's name, whose setting is ${nested}`,
      };
    });
  });
}

export function configError(where: string, issues: readonly Issue[]): TrainConfigError {
  const named = issues.map(({ path, message }) => ({
    path: path.length > 0 ? [settingName(path)] : [],
    message,
  }));
  return new TrainConfigError(`invalid ${where}: ${describeIssues({ issues: named }, '(root)')}`);
}

/**
 * A field of `owner`'s block given to a run of `algorithm` (with what that
 * one does instead, if it says); a field the block does not have is named
 * as unknown first.
 */
export function otherAlgorithmIssue(
  owner: AlgorithmDescriptor,
  field: string,
  algorithm: string,
): Issue {
  const only = `applies to --algorithm ${namesOf(owner)} only (the run's algorithm is ${algorithm})`;
  if (field !== '' && !Object.hasOwn(owner.settings.shape, field)) {
    return {
      path: [owner.block, field],
      message: `${unknownSetting(field, Object.keys(owner.settings.shape))}, and ${owner.block} ${only}`,
    };
  }
  const hint =
    field === '' ? undefined : algorithmNamed(algorithm)?.hints[flagOfField(owner.block, field)];
  return {
    path: field === '' ? [owner.block] : [owner.block, field],
    message: `${only}${hint === undefined ? '' : `; ${hint}`}`,
  };
}

/** Blocks of other algorithms than `config.algorithm`'s in a whole config, each field named. */
function otherAlgorithmIssues(config: Fields): Issue[] {
  const { algorithm } = config;
  const own = typeof algorithm === 'string' ? algorithmNamed(algorithm) : undefined;
  if (own === undefined || typeof algorithm !== 'string') return [];
  return algorithms()
    .filter((d) => d !== own && config[d.block] !== undefined)
    .flatMap((d) => {
      const block = config[d.block];
      const fields = isFields(block) ? Object.keys(block) : [];
      if (fields.length > 0) return fields.map((f) => otherAlgorithmIssue(d, f, algorithm));
      return [otherAlgorithmIssue(d, '', algorithm)];
    });
}

/**
 * The schema of a whole config of `descriptor`'s algorithm: the shared
 * settings with `algorithm` after the run's own, then its block.
 */
const schemas = new WeakMap<AlgorithmDescriptor, z.ZodType>();
function schemaOf(descriptor: AlgorithmDescriptor): z.ZodType {
  const known = schemas.get(descriptor);
  if (known !== undefined) return known;
  const [first, ...rest] = Object.keys(descriptor.names) as [string, ...string[]];
  const shape: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(sharedSettingsSchema.shape)) {
    shape[key] = schema;
    if (key === RUN_SETTINGS.at(-1)) shape.algorithm = z.enum([first, ...rest]);
  }
  shape[descriptor.block] = descriptor.settings;
  const schema = z.object(shape).strict();
  schemas.set(descriptor, schema);
  return schema;
}

/** A config checked against its algorithm's schema: the config, or the problems. */
function checkConfig(input: unknown): { config: TrainConfig } | { issues: readonly Issue[] } {
  const [first, ...rest] = algorithmNames() as [string, ...string[]];
  const named = z.looseObject({ algorithm: z.enum([first, ...rest]) }).safeParse(input);
  if (!named.success) return { issues: named.error.issues };
  const descriptor = algorithmOf(named.data);
  const schema = schemaOf(descriptor);
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    return { issues: namingUnknownKeys(parsed.error.issues, schema, descriptor) };
  const fields: Readonly<Fields> = isFields(parsed.data) ? parsed.data : {};
  // The shared settings typed (they are valid: this cannot throw), in the order config.json keeps.
  const { name, runsDir, seed, backend, ...common } = sharedSettingsSchema.parse(
    Object.fromEntries(Object.keys(sharedSettingsSchema.shape).map((key) => [key, fields[key]])),
  );
  const config: TrainConfig = {
    name,
    runsDir,
    seed,
    backend,
    algorithm: named.data.algorithm,
    ...common,
  };
  return { config: { ...config, [descriptor.block]: fields[descriptor.block] } };
}

/**
 * Validates a whole saved config, naming every bad or unknown field. A config
 * in a form of earlier versions (config/legacy.ts: a run's config.json or
 * checkpoint from before) is read as the config that trains the same run.
 */
export function parseTrainConfig(input: unknown, where = 'config'): TrainConfig {
  return checkedConfig(upgradeSaved(input, where), where);
}

/**
 * A config in today's form, checked: the config, or every problem, those of
 * the run's own settings first, then the blocks of other algorithms.
 */
export function configIssues(
  upgraded: unknown,
): { config: TrainConfig } | { issues: readonly Issue[] } {
  const misplaced = isFields(upgraded) ? otherAlgorithmIssues(upgraded) : [];
  if (misplaced.length === 0 || !isFields(upgraded)) return checkConfig(upgraded);
  const others = new Set(misplaced.map((issue) => issue.path[0]));
  const own = Object.fromEntries(Object.entries(upgraded).filter(([key]) => !others.has(key)));
  const checked = checkConfig(own);
  return { issues: [...('issues' in checked ? checked.issues : []), ...misplaced] };
}

/** A config in today's form, checked: the config, or a TrainConfigError naming every problem. */
function checkedConfig(upgraded: unknown, where: string): TrainConfig {
  const checked = configIssues(upgraded);
  if ('issues' in checked) throw configError(where, checked.issues);
  return checked.config;
}

/** A training config of today's form, checked against the schema of its algorithm (queue jobs carry one). */
export const trainConfigSchema = z.unknown().transform((value, ctx): TrainConfig => {
  const checked = checkConfig(value);
  if ('config' in checked) return checked.config;
  for (const { path, message } of checked.issues) {
    ctx.addIssue({ code: 'custom', path: [...path], message, input: value });
  }
  return z.NEVER;
});

/** A stored config (checkpoint, sweep record): today's form, or one of earlier versions, upgraded. */
export const savedTrainConfigSchema = z.preprocess(
  (value) => upgradeSaved(value),
  trainConfigSchema,
);
