import { z } from 'zod';
import {
  expertIterationSettingsSchema,
  ppoSettingsSchema,
  sharedSettingsSchema,
} from './schema.ts';

const shared = sharedSettingsSchema.shape;
const ppo = ppoSettingsSchema.shape;
const ei = expertIterationSettingsSchema.shape;

/**
 * The config runs saved before the settings were grouped by algorithm: every
 * setting at the top level, expert iteration named `alphazero`, its moves per
 * iteration `numEnvs * rolloutSteps`. The defaults are the ones that schema
 * gave settings added after the first runs were saved.
 */
const flatConfigSchema = z
  .object({
    ...shared,
    keepCheckpoints: shared.keepCheckpoints.default(3),
    extraEvalOpeningPlies: shared.extraEvalOpeningPlies.default([]),
    algorithm: z.enum(['ppo', 'reinforce', 'alphazero']),
    ...ppo,
    searchSimulations: ei.simulations.default(16),
    policyTarget: ei.policyTarget.default('completed-q'),
    replayIterations: ei.replayIterations.default(1),
    searchValueWeight: ei.searchValueWeight.default(0),
    selfPlayShards: ei.selfPlayShards.default(1),
    openingPliesMax: ei.openingPliesMax.default(null),
    balancedOpenings: ei.balancedOpenings.default(false),
    solverNodes: ei.solverNodes,
    fullSearchShare: ei.fullSearchShare,
    cheapSimulations: ei.cheapSimulations,
    solverPlaysProven: ei.solverPlaysProven,
    solverEndgameSeeds: ei.solverEndgameSeeds,
  })
  .strict();
type FlatConfig = z.infer<typeof flatConfigSchema>;

/** True for a whole config in the flat form (a run's config.json or checkpoint from before). */
export function isFlatConfig(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  if ('ppo' in value || 'expertIteration' in value) return false;
  return 'algorithm' in value && 'numEnvs' in value && 'rolloutSteps' in value;
}

/**
 * A flat config as the grouped one that trains the same run (for the
 * grouped schema to check): the algorithm's settings move into its block,
 * the other algorithm's (which it never read) are dropped. Returns null when
 * `value` is not a valid flat config.
 */
export function upgradeFlatConfig(value: unknown): Record<string, unknown> | null {
  if (!isFlatConfig(value)) return null;
  const parsed = flatConfigSchema.safeParse(value);
  return parsed.success ? fromFlat(parsed.data) : null;
}

/** The problems of a config that looks flat but is not a valid one (for error messages). */
export function flatConfigIssues(value: Record<string, unknown>): z.core.$ZodIssue[] {
  const parsed = flatConfigSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues;
}

const pick = (from: FlatConfig, keys: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(keys.map((key) => [key, (from as Record<string, unknown>)[key]]));

/** Expert iteration's settings that kept their names. */
const KEPT_EXPERT_ITERATION = Object.keys(ei).filter(
  (key) => !['gamesAtOnce', 'movesPerIteration', 'simulations'].includes(key),
);

function fromFlat(flat: FlatConfig): Record<string, unknown> {
  const shared = pick(flat, Object.keys(sharedSettingsSchema.shape));
  if (flat.algorithm === 'alphazero') {
    return {
      ...shared,
      algorithm: 'expert-iteration',
      expertIteration: {
        ...pick(flat, KEPT_EXPERT_ITERATION),
        gamesAtOnce: flat.numEnvs,
        movesPerIteration: flat.numEnvs * flat.rolloutSteps,
        simulations: flat.searchSimulations,
      },
    };
  }
  return { ...shared, algorithm: flat.algorithm, ppo: pick(flat, Object.keys(ppo)) };
}
