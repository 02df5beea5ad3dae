import { z } from 'zod';
import { type ObservationConfig, observationConfigSchema } from '../../env/gym/observation.ts';
import { DEFAULT_RULES, rulesSchema } from '../../env/rules.ts';
import { MAX_GAMES_PER_PAIRING } from '../../eval/match.ts';
import { BACKEND_CHOICES } from '../../models/backend-choice.ts';
import { networkConfigSchema } from '../../models/policy-value-model.ts';

const network = networkConfigSchema.shape;
const observation = observationConfigSchema.shape;

/**
 * What `ayoayo train --help` shows of a setting besides its type, range and
 * default: its description, the unit of its default, and its flag where that
 * is not the kebab-case of the setting's name. Every setting of the shared
 * schema and of each algorithm's block carries it (config/flags.ts derives
 * the flags and their help from the schemas alone).
 */
export interface SettingMeta {
  readonly description: string;
  readonly unit?: string;
  readonly flag?: string;
  /** A list of agent specs: its flag's text is split as every list of agents is (agents/spec-grammar.ts). */
  readonly agents?: true;
}

/** A setting's schema with its help (the meta zod keeps for it). */
export function setting<T extends z.ZodType>(schema: T, meta: SettingMeta): T {
  return schema.meta({ ...meta });
}

/** The help a setting's schema carries. */
export function settingMeta(schema: z.ZodType): SettingMeta {
  const meta = schema.meta();
  return {
    description: typeof meta?.description === 'string' ? meta.description : '',
    ...(typeof meta?.unit === 'string' ? { unit: meta.unit } : {}),
    ...(typeof meta?.flag === 'string' ? { flag: meta.flag } : {}),
    ...(meta?.agents === true ? { agents: true } : {}),
  };
}

/**
 * A name that is one plain folder inside its parent: never `.`, `..` or a
 * path, so that a run or sweep stays inside its runs folder.
 */
export const folderNameSchema = z
  .string()
  .regex(/^[\w.-]+$/, 'letters, digits, _ . - only')
  .refine((n) => n !== '.' && n !== '..', 'must be a folder name, not . or ..');

/** Where the run lives and what it runs on: first in a config, before the algorithm. */
const runShape = {
  name: setting(folderNameSchema.default('default'), {
    description: 'run name: the run lives in runs/NAME/',
  }),
  runsDir: setting(z.string().min(1).default('runs'), {
    description: 'folder that holds the runs',
  }),
  seed: setting(z.number().int().nonnegative().default(1), {
    description: 'seed for everything random in the run',
  }),
  backend: setting(z.enum(BACKEND_CHOICES).default('auto'), {
    description: 'tfjs backend (auto: tfjs-node, else wasm, else cpu)',
  }),
};

/** The settings of every algorithm, after `algorithm`. */
const commonShape = {
  iterations: setting(z.number().int().positive().default(60), {
    description: 'training iterations (self-play games, then an update, each)',
    unit: 'iterations',
  }),
  timeLimitMinutes: setting(z.number().positive().nullable().default(null), {
    description: 'stop after this many minutes of training (null: no limit)',
    unit: 'minutes',
  }),
  // The network and the observation keep the rules of the schemas that own them.
  hidden: setting(network.hidden.default([128, 128]), {
    description: 'hidden layer widths',
    unit: 'units per layer',
  }),
  activation: setting(network.activation.default('relu'), { description: 'hidden activation' }),
  encoding: setting(observation.encoding.unwrap().default('counts'), {
    description: 'board encoding of the observation',
  }),
  lookahead: setting(observation.lookahead.unwrap().default(true), {
    description: 'add engine-computed features of each action’s result',
  }),
  lookaheadEncoding: setting(observation.lookaheadEncoding.unwrap().default('counts'), {
    description:
      'encoding of the board after each action in the lookahead features (counts, onehot or thermometer)',
  }),
  // One value: a layer that gives some of its options keeps the others (docs/rules.md).
  rules: setting(rulesSchema.default(DEFAULT_RULES), {
    description: 'the rule options the run trains under (docs/rules.md)',
  }),
  maxPlies: setting(z.number().int().min(10).max(10000).default(200), {
    description: 'move cap; a capped game is a draw (reward 0)',
    unit: 'plies',
  }),
  learningRate: setting(z.number().positive().max(1).default(3e-4), {
    description: 'Adam learning rate',
    unit: 'per step',
  }),
  learningRateDecay: setting(z.boolean().default(false), {
    description: 'anneal the learning rate linearly to 10% over the run',
  }),
  minibatchSize: setting(z.number().int().min(16).max(65536).default(1024), {
    description: 'samples per gradient step',
    unit: 'samples',
  }),
  valueCoef: setting(z.number().min(0).default(0.5), { description: 'value loss weight' }),
  maxGradNorm: setting(z.number().positive().default(0.5), {
    description: 'gradient clipping by global norm',
  }),
  checkpointEvery: setting(z.number().int().min(1).default(5), {
    description: 'iterations between checkpoints',
    unit: 'iterations',
  }),
  keepCheckpoints: setting(z.number().int().min(1).default(3), {
    description: 'newest checkpoints kept on disk (plus the best and the latest)',
    unit: 'checkpoints',
  }),
  evalEvery: setting(z.number().int().min(1).default(10), {
    description: 'iterations between evaluations against the baselines',
    unit: 'iterations',
  }),
  // A pairing of a tournament plays at most this many (it keeps every game's record).
  evalGames: setting(z.number().int().min(2).max(MAX_GAMES_PER_PAIRING).default(100), {
    description: 'games per baseline at each evaluation (half from each seat)',
    unit: 'games',
  }),
  evalOpponents: setting(
    z.array(z.string()).min(1).default(['random', 'greedy', 'minimax:1', 'minimax:2']),
    { description: 'baselines the policy is evaluated against', agents: true },
  ),
  evalOpeningPlies: setting(z.number().int().min(0).max(20).default(4), {
    description: 'random opening plies of evaluation games',
    unit: 'plies',
  }),
  extraEvalOpeningPlies: setting(z.array(z.number().int().min(0).max(20)).default([]), {
    description: 'more opening depths of the final evaluation, one table each',
    unit: 'plies',
  }),
  // The whole main set: a fraction of a second for the policy alone, and intervals of +-2.5 points
  // rather than +-5.5 on a sample of 200, which hid any trend in a run's curve.
  evalAccuracyPositions: setting(z.number().int().min(0).default(1001), {
    description:
      "positions of the accuracy benchmark's main set (docs/accuracy.md) the policy's moves are scored on at each evaluation, the same ones each time (1001: all of them; 0: none)",
    unit: 'positions',
  }),
  finalEvalGames: setting(z.number().int().min(2).max(MAX_GAMES_PER_PAIRING).default(400), {
    description: 'games per baseline in the evaluation at the end',
    unit: 'games',
  }),
  updateSlices: setting(z.number().int().min(1).max(64).nullable().default(8), {
    description:
      "each minibatch's gradients as the sum of this many slices' gradients, each slice on a one-thread session, the slices on up to `workers` threads and added in slice order, so that the run is the same for any number of workers (null: one session of two threads, as runs saved before this setting had)",
    unit: 'slices',
  }),
  workers: setting(z.number().int().min(0).nullable().default(null), {
    description:
      "worker threads for self-play shards, the update's slices, evaluation games and accuracy scoring, at most one per core and, with self-play shards, one per shard; the run is the same for any number (null: one per core here; 0: all in-process)",
    unit: 'threads',
  }),
  progress: setting(z.boolean().default(true), { description: 'show a progress bar' }),
};

/**
 * The settings every run has, whatever its algorithm, each with its
 * default: a training config is these, `algorithm`, and the block of that
 * algorithm's own settings (train/algorithm-descriptor.ts), in that order,
 * and is saved with the run as its config.json.
 */
export const sharedSettingsSchema = z.object({ ...runShape, ...commonShape }).strict();
export type SharedSettings = z.output<typeof sharedSettingsSchema>;

/** Where `algorithm` goes among the shared settings: after the run's own (name, folder, seed, backend). */
export const RUN_SETTINGS = Object.keys(runShape) as (keyof typeof runShape)[];

/** The shared settings of a run that sets none. */
export const DEFAULT_SHARED: SharedSettings = sharedSettingsSchema.parse({});

/**
 * A validated training config as code that serves every algorithm sees it:
 * the shared settings and the algorithm's name. The block of the
 * algorithm's settings is there too, typed by that algorithm's own code
 * (`ConfigOf`).
 */
export type TrainConfig = SharedSettings & { readonly algorithm: string };

/** The config of a run of an algorithm named one of `N`, whose block `K` holds settings `S`. */
export type ConfigOf<N extends string, K extends string, S> = SharedSettings & {
  readonly algorithm: N;
} & { readonly [key in K]: S };

/** The observation a run's network sees, from its settings. */
export function observationOf(
  settings: Pick<SharedSettings, 'encoding' | 'lookahead' | 'lookaheadEncoding'>,
): ObservationConfig {
  return {
    encoding: settings.encoding,
    lookahead: settings.lookahead,
    lookaheadEncoding: settings.lookaheadEncoding,
  };
}
