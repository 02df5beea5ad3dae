import { z } from 'zod';

/**
 * The shapes of settings that earlier versions saved, frozen as they were
 * read when this file was written: a literal copy, never today's schemas,
 * so that changing a default or a bound today cannot change how an old run
 * reads. legacy.ts upgrades them; test/train/legacy-shapes.test.ts holds
 * them against the saved runs of test/fixtures/train.
 */

const int = z.number().int();
const encoding = z.enum(['counts', 'onehot', 'thermometer']);
const openingPlies = int.min(0).max(20);

/**
 * The flat config of runs saved before the settings were grouped by
 * algorithm (commit 77a0fa0 and after): every setting at the top, expert
 * iteration named `alphazero`, the rule options as settings of their own,
 * and the settings of the algorithm the run did not use.
 */
export const flatConfigSchema = z
  .object({
    name: z.string().default('default'),
    runsDir: z.string().min(1).default('runs'),
    seed: int.nonnegative().default(1),
    backend: z.enum(['auto', 'tensorflow', 'wasm', 'cpu']).default('auto'),
    iterations: int.positive().default(60),
    timeLimitMinutes: z.number().positive().nullable().default(null),
    hidden: z.array(int.min(1).max(4096)).min(1).max(8).default([128, 128]),
    activation: z.enum(['relu', 'tanh']).default('relu'),
    encoding: encoding.default('counts'),
    lookahead: z.boolean().default(true),
    lookaheadEncoding: encoding.default('counts'),
    maxPlies: int.min(10).max(10000).default(200),
    learningRate: z.number().positive().max(1).default(3e-4),
    learningRateDecay: z.boolean().default(false),
    minibatchSize: int.min(16).max(65536).default(1024),
    valueCoef: z.number().min(0).default(0.5),
    maxGradNorm: z.number().positive().default(0.5),
    checkpointEvery: int.min(1).default(5),
    keepCheckpoints: int.min(1).default(3),
    evalEvery: int.min(1).default(10),
    evalGames: int.min(2).max(1_000_000).default(100),
    evalOpponents: z
      .array(z.string())
      .min(1)
      .default(['random', 'greedy', 'minimax:1', 'minimax:2']),
    evalOpeningPlies: openingPlies.default(4),
    extraEvalOpeningPlies: z.array(openingPlies).default([]),
    evalAccuracyPositions: int.min(0).default(1001),
    finalEvalGames: int.min(2).max(1_000_000).default(400),
    // The update's gradients on one session of two threads, as every run before `updateSlices`.
    updateSlices: int.min(1).max(64).nullable().default(null),
    workers: int.min(0).nullable().default(null),
    progress: z.boolean().default(true),
    captureSeedStays: z.boolean().optional(),
    leftoverTo: z.enum(['opponent', 'owner']).optional(),
    algorithm: z.enum(['ppo', 'reinforce', 'alphazero']),
    // PPO's and REINFORCE's settings (the rollouts of expert iteration: numEnvs * rolloutSteps moves).
    numEnvs: int.min(1).max(8192).default(256),
    rolloutSteps: int.min(1).max(4096).default(32),
    epochs: int.min(1).max(50).default(4),
    clip: z.number().positive().max(1).default(0.2),
    gamma: z.number().min(0).max(1).default(1),
    gaeLambda: z.number().min(0).max(1).default(0.95),
    entropyCoef: z.number().min(0).default(0.01),
    openingPlies: openingPlies.default(4),
    poolShare: z.number().min(0).max(1).default(0.2),
    poolSize: int.min(1).max(100).default(10),
    snapshotEvery: int.min(1).default(5),
    baselineShare: z.number().min(0).max(1).default(0),
    baselineOpponents: z.array(z.string()).default(['greedy']),
    // Expert iteration's own.
    searchSimulations: int.min(1).max(1024).default(16),
    policyTarget: z.enum(['completed-q', 'visits']).default('completed-q'),
    completedQScale: z.number().gt(0).max(10).default(0.1),
    replayIterations: int.min(1).max(64).default(1),
    searchValueWeight: z.number().min(0).max(1).default(0),
    selfPlayShards: int.min(1).max(64).default(1),
    openingPliesMax: openingPlies.nullable().default(null),
    balancedOpenings: z.boolean().default(false),
    solverNodes: int
      .min(0)
      .max(1 << 24)
      .default(0),
    solverEndgameSeeds: int.min(0).max(20).default(16),
    // Removed since: legacy.ts reads them as REMOVED says.
    fullSearchShare: z.unknown().optional(),
    cheapSimulations: z.unknown().optional(),
    solverPlaysProven: z.unknown().optional(),
  })
  .strict();
export type FlatConfig = z.output<typeof flatConfigSchema>;

/** The flat config's settings that are PPO's and REINFORCE's own, under today's names. */
export const FLAT_PPO = [
  'numEnvs',
  'rolloutSteps',
  'epochs',
  'clip',
  'gamma',
  'gaeLambda',
  'entropyCoef',
  'openingPlies',
  'poolShare',
  'poolSize',
  'snapshotEvery',
  'baselineShare',
  'baselineOpponents',
] as const;

/**
 * The flat config's settings that are expert iteration's own and kept their
 * names (its games and moves come from numEnvs and rolloutSteps, its
 * simulations were `searchSimulations`), the removed ones among them.
 */
export const FLAT_EXPERT_ITERATION = [
  'epochs',
  'openingPlies',
  'policyTarget',
  'completedQScale',
  'replayIterations',
  'searchValueWeight',
  'selfPlayShards',
  'openingPliesMax',
  'balancedOpenings',
  'solverNodes',
  'solverEndgameSeeds',
  'fullSearchShare',
  'cheapSimulations',
  'solverPlaysProven',
] as const;

/** The flat config's settings that every algorithm has, under today's names (the rules apart). */
export const FLAT_SHARED = [
  'name',
  'runsDir',
  'seed',
  'backend',
  'iterations',
  'timeLimitMinutes',
  'hidden',
  'activation',
  'encoding',
  'lookahead',
  'lookaheadEncoding',
  'maxPlies',
  'learningRate',
  'learningRateDecay',
  'minibatchSize',
  'valueCoef',
  'maxGradNorm',
  'checkpointEvery',
  'keepCheckpoints',
  'evalEvery',
  'evalGames',
  'evalOpponents',
  'evalOpeningPlies',
  'extraEvalOpeningPlies',
  'evalAccuracyPositions',
  'finalEvalGames',
  'updateSlices',
  'workers',
  'progress',
] as const;

/** The rule options as settings of their own, before the rules were one setting. */
export const FLAT_RULE_OPTIONS = ['captureSeedStays', 'leftoverTo'] as const;

/**
 * Settings added since runs were saved whole without them (config.json,
 * a checkpoint's, a sweep's record), each at the value that trains such a run
 * as it was: the update's gradients on one session of two threads.
 */
export const ADDED_SINCE = { updateSlices: null } as const;

/**
 * A setting that is gone: where it was, its flag, the value every run had
 * without it (none for a setting that counted only beside another removed one
 * at another value: at any value it changed nothing), and why it went.
 */
export interface RemovedSetting {
  readonly block: string;
  readonly field: string;
  readonly flag: string;
  readonly value?: unknown;
  readonly why: string;
}

/** Measured in docs/experiments/ (2026-12-02): none bought anything, and no preset used any. */
export const REMOVED: readonly RemovedSetting[] = [
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
