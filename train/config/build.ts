import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { describeIssues, type IssueList } from '../../env/zod-issues.ts';
import { TrainConfigError } from '../errors.ts';
import { flagOfField, flagOfKey } from './flags.ts';
import { flatConfigIssues, isFlatConfig, upgradeFlatConfig } from './flat-config.ts';
import { DEFAULT_ALGORITHM, DEFAULT_BLOCKS, DEFAULT_SHARED, isPreset } from './presets.ts';
import {
  type Algorithm,
  algorithmSchema,
  BLOCK_ALGORITHMS,
  type BlockName,
  blockOf,
  sharedSettingsSchema,
  type TrainConfig,
  trainConfigSchema,
} from './schema.ts';

type Issue = IssueList['issues'][number];
type Fields = Record<string, unknown>;

const BLOCKS = Object.keys(BLOCK_ALGORITHMS) as BlockName[];

const isBlock = (key: string): key is BlockName => (BLOCKS as string[]).includes(key);

const isFields = (value: unknown): value is Fields =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** How a setting is named in messages: its path, and its flag where the flag is spelled otherwise. */
function settingName(path: readonly PropertyKey[]): string {
  const [block, field] = path;
  const name = path.map(String).join('.');
  if (typeof block !== 'string' || !isBlock(block) || typeof field !== 'string') return name;
  return `${name} (--${flagOfField(block, field)})`;
}

function configError(where: string, issues: readonly Issue[]): TrainConfigError {
  const named = issues.map(({ path, message }) => ({
    path: path.length > 0 ? [settingName(path)] : [],
    message,
  }));
  return new TrainConfigError(`invalid ${where}: ${describeIssues({ issues: named }, '(root)')}`);
}

function otherAlgorithmIssue(block: BlockName, field: string, algorithm: Algorithm): Issue {
  const hint =
    block === 'ppo' && field === 'rolloutSteps'
      ? '; expert iteration plays --moves-per-iteration moves per iteration'
      : '';
  return {
    path: [block, field],
    message: `applies to --algorithm ${BLOCK_ALGORITHMS[block].join(' or ')} only (the run's algorithm is ${algorithm})${hint}`,
  };
}

/** Settings of another algorithm's block than `config.algorithm`'s, each named. */
function otherAlgorithmIssues(config: Fields): Issue[] {
  const parsed = algorithmSchema.safeParse(config.algorithm);
  if (!parsed.success) return [];
  const own = blockOf(parsed.data);
  return BLOCKS.filter((b) => b !== own && config[b] !== undefined).flatMap((b) => {
    const fields = isFields(config[b]) ? Object.keys(config[b]) : [];
    if (fields.length > 0) return fields.map((f) => otherAlgorithmIssue(b, f, parsed.data));
    const { message } = otherAlgorithmIssue(b, '', parsed.data);
    return [{ path: [b], message }];
  });
}

/**
 * Validates a whole config, naming every bad or unknown field. A config in
 * the flat form of earlier versions (a run's config.json or checkpoint from
 * before the settings were grouped by algorithm) is read as the grouped
 * config that trains the same run.
 */
export function parseTrainConfig(input: unknown, where = 'config'): TrainConfig {
  if (isFlatConfig(input)) {
    const upgraded = upgradeFlatConfig(input);
    if (upgraded !== null) return parseTrainConfig(upgraded, where);
    const flat = `${where} (flat, as saved before the settings were grouped by algorithm)`;
    throw configError(flat, flatConfigIssues(input));
  }
  if (isFields(input)) {
    const misplaced = otherAlgorithmIssues(input);
    if (misplaced.length > 0) throw configError(where, misplaced);
  }
  const parsed = trainConfigSchema.safeParse(input);
  if (!parsed.success) throw configError(where, parsed.error.issues);
  return parsed.data;
}

/** A stored config (checkpoint, job): the grouped form, or the flat one of earlier versions, read as grouped. */
export const savedTrainConfigSchema = z.preprocess(
  (value) => upgradeFlatConfig(value) ?? value,
  trainConfigSchema,
);

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function checkKeys(layer: Fields, where: string): void {
  for (const [key, value] of Object.entries(layer)) {
    // `merged.__proto__ = x` would replace the prototype instead of adding a field.
    if (FORBIDDEN_KEYS.has(key)) {
      throw new TrainConfigError(`invalid ${where}: key ${JSON.stringify(key)} is not allowed`);
    }
    if (isBlock(key) && isFields(value)) checkKeys(value, where);
  }
}

/**
 * A layer as buildConfig reads it: a whole flat config grouped; a layer that
 * names expert iteration `alphazero`, as configs and sweeps did before, with
 * that name's meaning of `numEnvs` and `rolloutSteps` given together (moves
 * per iteration `numEnvs * rolloutSteps`).
 */
function readLayer(layer: Fields, where: string): Fields {
  checkKeys(layer, where);
  const upgraded = upgradeFlatConfig(layer);
  if (upgraded !== null) return upgraded;
  if (layer.algorithm !== 'alphazero') return layer;
  const { numEnvs, rolloutSteps, ...rest } = layer;
  const both = typeof numEnvs === 'number' && typeof rolloutSteps === 'number';
  return {
    ...rest,
    algorithm: 'expert-iteration',
    ...(numEnvs === undefined ? {} : { numEnvs }),
    ...(both ? { movesPerIteration: numEnvs * rolloutSteps } : { rolloutSteps }),
  };
}

/**
 * Defaults, then a preset, then a config file's fields, then command-line
 * flags (later layers win). A layer holds shared settings, `algorithm`, and
 * the settings of the run's algorithm either as its block (`expertIteration:
 * { simulations: 32 }`) or flat, keyed by their flags in camelCase
 * (`searchSimulations: 32`, as flags, flat config files and sweeps give
 * them); a flag that both algorithms have (`epochs`) sets the run's
 * algorithm's field. Settings of the other algorithm are an error naming
 * each, except in a preset, which may hold blocks for both.
 */
export function buildConfig(
  layers: readonly (object | undefined)[],
  where = 'config',
): TrainConfig {
  const given = layers.filter((l) => l !== undefined);
  const read = given.map((l) => readLayer(l as Fields, where));
  const algorithm = read.findLast((l) => l.algorithm !== undefined)?.algorithm ?? DEFAULT_ALGORITHM;
  // An unknown algorithm is reported by the schema; its settings are read as the default's meanwhile.
  const chosen = algorithmSchema.safeParse(algorithm);
  const known = chosen.success ? chosen.data : DEFAULT_ALGORITHM;
  const own = blockOf(known);
  const other: BlockName = own === 'ppo' ? 'expertIteration' : 'ppo';
  const shared: Fields = { ...DEFAULT_SHARED };
  const block: Fields = { ...DEFAULT_BLOCKS[own] };
  const problems: Issue[] = [];
  const set = (to: Fields, key: string, value: unknown) => {
    if (value !== undefined) to[key] = value;
  };
  for (const [i, layer] of read.entries()) {
    const preset = isPreset(given[i] as object);
    for (const [key, value] of Object.entries(layer)) {
      const flag = flagOfKey(key);
      if (key === 'algorithm' || value === undefined) continue;
      if (isBlock(key) && !isFields(value)) {
        problems.push({ path: [key], message: `must be an object of ${key} settings` });
      } else if (key === own && isFields(value)) {
        for (const [field, v] of Object.entries(value)) set(block, field, v);
      } else if (key === other && isFields(value)) {
        if (preset) continue;
        for (const field of Object.keys(value))
          problems.push(otherAlgorithmIssue(other, field, known));
      } else if (flag !== undefined && flag.shared === undefined) {
        const field = flag[own];
        if (field !== undefined) set(block, field, value);
        else problems.push(otherAlgorithmIssue(other, flag[other] as string, known));
      } else {
        set(shared, key, value);
      }
    }
  }
  if (problems.length > 0 && chosen.success) throw configError(where, problems);
  return parseTrainConfig({ ...shared, algorithm, [own]: block }, where);
}

/**
 * The run folder layers name (`name`, `runsDir`, defaults under them),
 * checked as the schema checks them, without the rest of the config (whose
 * algorithm may come from the run's checkpoint).
 */
export function runLocation(
  layers: readonly (object | undefined)[],
  where = 'config',
): { readonly name: string; readonly runsDir: string } {
  const location: Fields = { name: DEFAULT_SHARED.name, runsDir: DEFAULT_SHARED.runsDir };
  for (const layer of layers) {
    if (layer === undefined) continue;
    checkKeys(layer as Fields, where);
    for (const key of ['name', 'runsDir'] as const) {
      const value = (layer as Fields)[key];
      if (value !== undefined) location[key] = value;
    }
  }
  const parsed = sharedSettingsSchema.pick({ name: true, runsDir: true }).safeParse(location);
  if (!parsed.success) throw configError(where, parsed.error.issues);
  return parsed.data;
}

/**
 * The settings in which two configs differ, by path (`hidden`,
 * `expertIteration.simulations`), leaving out `ignore`; of two algorithms,
 * only `algorithm` itself.
 */
export function differingSettings(
  a: TrainConfig,
  b: TrainConfig,
  ignore: ReadonlySet<string>,
): { readonly path: string; readonly a: unknown; readonly b: unknown }[] {
  const out: { path: string; a: unknown; b: unknown }[] = [];
  const fa = a as unknown as Fields;
  const fb = b as unknown as Fields;
  const sameBlock = blockOf(a.algorithm) === blockOf(b.algorithm);
  for (const key of Object.keys(fa)) {
    if (ignore.has(key)) continue;
    if (isBlock(key)) {
      if (!sameBlock) continue;
      const ba = fa[key] as Fields;
      const bb = fb[key] as Fields;
      for (const field of Object.keys(ba)) {
        if (!isDeepStrictEqual(ba[field], bb[field])) {
          out.push({ path: settingName([key, field]), a: ba[field], b: bb[field] });
        }
      }
    } else if (!isDeepStrictEqual(fa[key], fb[key])) {
      out.push({ path: key, a: fa[key], b: fb[key] });
    }
  }
  return out;
}
