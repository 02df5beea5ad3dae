import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { rulesSchema } from '../../env/rules.ts';
import { describeIssues } from '../../env/zod-issues.ts';
import { TrainConfigError } from '../errors.ts';
import { expertIterationSettingsSchema } from '../expert-iteration/settings.ts';
import { ppoSettingsSchema } from '../ppo/settings.ts';
import { type Fields, isFields } from '../settings/layer.ts';
import { sharedSettingsSchema } from '../settings/schema.ts';

/**
 * The forms of settings that earlier versions saved or read, upgraded to the
 * nested shape of today: the one place that knows them, frozen as they were
 * (they name the two algorithms there were then). Every config and layer
 * read from outside passes here first: a run's config.json and checkpoints,
 * a --config file, a sweep's settings.
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
 * 5. Settings added since, which a config saved whole before them lacks
 *    (ADDED): a saved config (config.json, a checkpoint's, a sweep's record)
 *    without one reads it at the value that trains the run as it was, and
 *    so does a flat config. A layer without it takes its default.
 */

const shared = sharedSettingsSchema.shape;
const ppo = ppoSettingsSchema.shape;
const ei = expertIterationSettingsSchema.shape;

/**
 * A setting that is gone: where it was, its flag, the value every run had
 * without it (none for a setting that counted only beside another removed one
 * at another value: at any value it changed nothing), and why it went.
 */
interface RemovedSetting {
  readonly block: string;
  readonly field: string;
  readonly flag: string;
  readonly value?: unknown;
  readonly why: string;
}

/** Measured in docs/experiments/ (2026-12-02): none bought anything, and no preset used any. */
const REMOVED: readonly RemovedSetting[] = [
  {
    block: 'expertIteration',
    field: 'fullSearchShare',
    flag: 'full-search-share',
    value: 1,
    why: 'playout cap randomization measured level with searching every move in full',
  },
  {
    block: 'expertIteration',
    field: 'cheapSimulations',
    flag: 'cheap-simulations',
    why: 'it counted only with fullSearchShare',
  },
  {
    block: 'expertIteration',
    field: 'solverPlaysProven',
    flag: 'solver-plays-proven',
    value: false,
    why: 'the solver moving where it proved the value measured weaker in play',
  },
  {
    block: 'expertIteration',
    field: 'alphaBetaDepth',
    flag: 'alpha-beta-depth',
    value: 0,
    why: 'alpha-beta as the teacher measured no gain and cost points in play',
  },
  {
    block: 'expertIteration',
    field: 'alphaBetaShare',
    flag: 'alpha-beta-share',
    why: 'it counted only with alphaBetaDepth',
  },
];

/**
 * Step 5's settings, each at the value of the runs saved before it: the
 * update's gradients on one session of two threads (`updateSlices` null).
 */
const ADDED = { updateSlices: null } as const satisfies Partial<
  Record<keyof typeof shared, unknown>
>;

/** The rule options as the settings they were before `rules`, each one's name its own. */
const flatRules = rulesSchema.partial().shape;
const RULE_OPTIONS = Object.keys(flatRules);

const { rules: _rules, ...sharedWithoutRules } = shared;

/**
 * The flat config of step 1, with the defaults that runs saved before a
 * setting existed had (the shared settings' own, and these).
 */
const flatConfigSchema = z
  .object({
    ...sharedWithoutRules,
    updateSlices: shared.updateSlices.unwrap().default(ADDED.updateSlices),
    ...flatRules,
    algorithm: z.enum(['ppo', 'reinforce', 'alphazero']),
    ...ppo,
    searchSimulations: ei.simulations,
    policyTarget: ei.policyTarget,
    replayIterations: ei.replayIterations,
    searchValueWeight: ei.searchValueWeight,
    selfPlayShards: ei.selfPlayShards,
    openingPliesMax: ei.openingPliesMax,
    balancedOpenings: ei.balancedOpenings,
    solverNodes: ei.solverNodes,
    solverEndgameSeeds: ei.solverEndgameSeeds,
    // Removed since: step 4 reads them.
    fullSearchShare: z.unknown().optional(),
    cheapSimulations: z.unknown().optional(),
    solverPlaysProven: z.unknown().optional(),
  })
  .strict();
type FlatConfig = z.output<typeof flatConfigSchema>;

/** True for a whole config in the flat form of step 1. */
function isFlatConfig(value: Fields): boolean {
  if ('ppo' in value || 'expertIteration' in value) return false;
  return 'algorithm' in value && 'numEnvs' in value && 'rolloutSteps' in value;
}

const pick = (from: FlatConfig, keys: readonly string[]): Fields => {
  const fields: Readonly<Fields> = from;
  return Object.fromEntries(keys.map((key) => [key, fields[key]]));
};

/** Expert iteration's settings that kept their names, and those removed since. */
const KEPT_EXPERT_ITERATION = Object.keys(flatConfigSchema.shape).filter(
  (key) =>
    (key in ei || REMOVED.some((gone) => gone.field === key)) &&
    !['gamesAtOnce', 'movesPerIteration', 'simulations'].includes(key),
);

/** Step 1: the grouped config that trains the same run; the unused algorithm's settings are dropped. */
function fromFlat(flat: FlatConfig): Fields {
  const grouped = pick(flat, [...Object.keys(sharedWithoutRules), ...Object.keys(flatRules)]);
  if (flat.algorithm === 'alphazero') {
    return {
      ...grouped,
      algorithm: 'expert-iteration',
      expertIteration: {
        ...pick(flat, KEPT_EXPERT_ITERATION),
        gamesAtOnce: flat.numEnvs,
        movesPerIteration: flat.numEnvs * flat.rolloutSteps,
        simulations: flat.searchSimulations,
      },
    };
  }
  return { ...grouped, algorithm: flat.algorithm, ppo: pick(flat, Object.keys(ppo)) };
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
  if (!RULE_OPTIONS.some((option) => option in layer)) return layer;
  const given: Fields = {};
  const rest: Fields = {};
  for (const [key, value] of Object.entries(layer)) {
    if (!RULE_OPTIONS.includes(key)) rest[key] = value;
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
    if (inBlock) {
      const { [gone.field]: _, ...kept } = block;
      out = { ...out, [gone.block]: kept };
    } else {
      const { [gone.field]: _, ...kept } = out;
      out = kept;
    }
  }
  return out;
}

/**
 * A config saved whole (config.json, a checkpoint's, a sweep's record) in
 * today's form: upgradeLegacy, then step 5.
 */
export function upgradeSaved(value: unknown, where = 'config'): unknown {
  const upgraded = upgradeLegacy(value, where);
  if (!isFields(upgraded)) return upgraded;
  const missing = Object.entries(ADDED).filter(([key]) => !(key in upgraded));
  return missing.length === 0 ? upgraded : { ...upgraded, ...Object.fromEntries(missing) };
}

/**
 * `value` (a config or a layer) in today's form, for buildConfig or the
 * schema to check. Throws a TrainConfigError for a flat config that is not a
 * valid one, and for a removed setting at another value than its default.
 */
export function upgradeLegacy(value: unknown, where = 'config'): unknown {
  if (!isFields(value)) return value;
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
