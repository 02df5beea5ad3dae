import { isDeepStrictEqual } from 'node:util';
import { describeIssues } from '../../env/zod-issues.ts';
import { TrainConfigError } from '../errors.ts';
import { type Fields, isFields } from '../settings/layer.ts';
import {
  ADDED_SINCE,
  FLAT_EXPERT_ITERATION,
  FLAT_PPO,
  FLAT_RULE_OPTIONS,
  FLAT_SHARED,
  type FlatConfig,
  flatConfigSchema,
  REMOVED,
} from './legacy-shapes.ts';

/**
 * The forms of settings that earlier versions saved or read, upgraded to the
 * nested shape of today, once, where they are read: a --config file or a
 * sweep's settings (upgradeLayer), a run's config.json, checkpoint or sweep
 * record (upgradeSaved). The shapes are frozen in legacy-shapes.ts.
 *
 * 1. The flat config of runs saved before the settings were grouped by
 *    algorithm: every setting at the top, expert iteration named `alphazero`
 *    with its moves per iteration `numEnvs * rolloutSteps`, and the settings
 *    of the algorithm the run did not use, which it never read.
 * 2. A layer naming expert iteration `alphazero`, as config files and sweeps
 *    of then did, with that name's meaning of `numEnvs` and `rolloutSteps`.
 * 3. The rule options as settings of their own, each under its name, before
 *    the rules were one setting.
 * 4. Settings that were removed: at the value every run had without them
 *    they are dropped (the run is the same), at any other they are refused,
 *    naming the setting.
 * 5. Settings added since, which a config saved whole before them lacks: it
 *    reads them at the value that trains the run as it was.
 */

/** True for a whole config in the flat form of step 1. */
function isFlatConfig(value: Fields): boolean {
  if ('ppo' in value || 'expertIteration' in value) return false;
  return 'algorithm' in value && 'numEnvs' in value && 'rolloutSteps' in value;
}

const pick = (from: FlatConfig, keys: readonly string[]): Fields => {
  const fields: Readonly<Fields> = from;
  return Object.fromEntries(keys.map((key) => [key, fields[key]]));
};

/** Step 1: the grouped config that trains the same run; the unused algorithm's settings are dropped. */
function fromFlat(flat: FlatConfig): Fields {
  const grouped = pick(flat, [...FLAT_SHARED, ...FLAT_RULE_OPTIONS]);
  if (flat.algorithm === 'alphazero') {
    return {
      ...grouped,
      algorithm: 'expert-iteration',
      expertIteration: {
        ...pick(flat, FLAT_EXPERT_ITERATION),
        gamesAtOnce: flat.numEnvs,
        movesPerIteration: flat.numEnvs * flat.rolloutSteps,
        simulations: flat.searchSimulations,
      },
    };
  }
  return { ...grouped, algorithm: flat.algorithm, ppo: pick(flat, FLAT_PPO) };
}

/** Step 2: `alphazero` as expert iteration, `numEnvs` and `rolloutSteps` given together as its moves. */
function fromAlphazero(layer: Fields): Fields {
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

/** Step 3: the rule options given as settings of their own, as the one `rules` setting. */
function fromFlatRules(layer: Fields): Fields {
  const options: readonly string[] = FLAT_RULE_OPTIONS;
  if (!options.some((option) => option in layer)) return layer;
  const given: Fields = {};
  const rest: Fields = {};
  for (const [key, value] of Object.entries(layer)) {
    if (!options.includes(key)) rest[key] = value;
    else if (value !== undefined) given[key] = value;
  }
  const { rules } = layer;
  return { ...rest, rules: { ...given, ...(isFields(rules) ? rules : {}) } };
}

/** Step 4: a removed setting at its old default dropped, at any other value refused. */
function withoutRemoved(layer: Fields, where: string): Fields {
  let out = layer;
  for (const gone of REMOVED) {
    const block = out[gone.block];
    const inBlock = isFields(block) && gone.field in block;
    if (!inBlock && !(gone.field in out)) continue;
    const value = inBlock ? block[gone.field] : out[gone.field];
    if (value !== undefined && 'value' in gone && !isDeepStrictEqual(value, gone.value)) {
      throw new TrainConfigError(
        `invalid ${where}: ${gone.block}.${gone.field} (--${gone.flag}) is ${JSON.stringify(value)}, but this version has no such setting any more (${gone.why}); it reads the setting only at ${JSON.stringify(gone.value)}, the value of every run without it`,
      );
    }
    const { [gone.field]: _, ...kept } = inBlock ? block : out;
    out = inBlock ? { ...out, [gone.block]: kept } : kept;
  }
  return out;
}

/**
 * Settings of a file or a sweep (some settings, in any form earlier versions
 * read) in today's form, steps 1 to 4. Throws a TrainConfigError for a flat
 * config that is not a valid one, and for a removed setting at another value
 * than its default.
 */
export function upgradeLayer(value: Fields, where: string): Fields {
  let layer = value;
  if (isFlatConfig(layer)) {
    const parsed = flatConfigSchema.safeParse(layer);
    if (!parsed.success) {
      throw new TrainConfigError(
        `invalid ${where} (flat, as saved before the settings were grouped by algorithm): ${describeIssues(parsed.error, '(root)')}`,
      );
    }
    layer = fromFlat(parsed.data);
  }
  return withoutRemoved(fromFlatRules(fromAlphazero(layer)), where);
}

/** A config saved whole (config.json, a checkpoint's, a sweep's record) in today's form: steps 1 to 5. */
export function upgradeSaved(value: unknown, where = 'config'): unknown {
  if (!isFields(value)) return value;
  const upgraded = upgradeLayer(value, where);
  const missing = Object.entries(ADDED_SINCE).filter(([key]) => !(key in upgraded));
  return missing.length === 0 ? upgraded : { ...upgraded, ...Object.fromEntries(missing) };
}
