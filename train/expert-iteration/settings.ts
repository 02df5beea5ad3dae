import { z } from 'zod';
import { DEFAULT_ENDGAME_SEEDS, MAX_ENDGAME_SEEDS } from '../../solve/endgame/cache/table-cache.ts';
import { type ConfigOf, setting } from '../settings/schema.ts';

/** mctx's c_scale of the completed-Q target. */
export const DEFAULT_COMPLETED_Q_SCALE = 0.1;

const openingPlies = z.number().int().min(0).max(20);

/** Expert iteration's settings: searched self-play, its replay window and its update. */
export const expertIterationSettingsSchema = z
  .object({
    gamesAtOnce: setting(z.number().int().min(1).max(8192).default(256), {
      description: 'self-play games played at once, the leaves of their searches batched',
      unit: 'games',
    }),
    movesPerIteration: setting(
      z
        .number()
        .int()
        .min(1)
        .max(1 << 25)
        .default(256 * 32),
      {
        description:
          'searched moves per iteration over all games (played on until one game has ended)',
        unit: 'moves',
      },
    ),
    selfPlayShards: setting(z.number().int().min(1).max(64).default(1), {
      description:
        'the self-play games are split into this many shards, each with its own random generator, played at once on up to `workers` threads (the run is the same for any number of workers)',
      unit: 'shards',
    }),
    simulations: setting(z.number().int().min(1).max(1024).default(16), {
      description: 'simulations of the search behind each self-play move',
      unit: 'simulations',
      flag: 'search-simulations',
    }),
    policyTarget: setting(z.enum(['completed-q', 'visits']).default('completed-q'), {
      description:
        "the policy target, Gumbel MuZero's completed-Q improved policy or AlphaZero's visit counts",
    }),
    completedQScale: setting(z.number().gt(0).max(10).default(DEFAULT_COMPLETED_Q_SCALE), {
      description:
        "c_scale of the completed-Q policy target (Gumbel MuZero's sigma): how far the search's values sharpen the target beyond the network's prior; lower is softer (policyTarget completed-q only)",
    }),
    searchValueWeight: setting(z.number().min(0).max(1).default(0), {
      description:
        "weight of the search's root value in the value target, the rest being the game's outcome",
    }),
    solverNodes: setting(
      z
        .number()
        .int()
        .min(0)
        .max(1 << 24)
        .default(0),
      {
        description:
          'nodes of the exact solver on each searched position: where it proves the value, the value target is the proven result, and moves proven to lose it leave the policy target (0: no solver)',
      },
    ),
    solverEndgameSeeds: setting(
      z.number().int().min(0).max(MAX_ENDGAME_SEEDS).default(DEFAULT_ENDGAME_SEEDS),
      {
        description:
          "the solver looks every board of up to this many seeds up in an endgame table, built once into the user's cache (16: about a minute); with solverNodes only",
      },
    ),
    replayIterations: setting(z.number().int().min(1).max(64).default(1), {
      description:
        'each update trains on the positions of the games that ended in the last N iterations',
      unit: 'iterations',
    }),
    epochs: setting(z.number().int().min(1).max(50).default(4), {
      description: 'passes over the replay window at each update',
      unit: 'passes',
    }),
    openingPlies: setting(openingPlies.default(4), {
      description: 'fewest random plies at the start of each training game',
      unit: 'plies',
    }),
    openingPliesMax: setting(openingPlies.nullable().default(null), {
      description:
        "with a number, each training game's random opening plies are drawn uniformly from openingPlies..openingPliesMax (null: always openingPlies)",
      unit: 'plies',
    }),
    balancedOpenings: setting(z.boolean().default(false), {
      description:
        'redraw a training opening until a depth-4 search rates it within 4 seeds, as the tournament does',
    }),
  })
  .strict()
  .superRefine((ei, ctx) => {
    if (ei.selfPlayShards > ei.gamesAtOnce) {
      ctx.addIssue({
        code: 'custom',
        path: ['selfPlayShards'],
        message: `is ${ei.selfPlayShards}, more than gamesAtOnce (${ei.gamesAtOnce}): every shard needs a game`,
      });
    }
    if (ei.policyTarget === 'visits' && ei.completedQScale !== DEFAULT_COMPLETED_Q_SCALE) {
      ctx.addIssue({
        code: 'custom',
        path: ['completedQScale'],
        message: `is ${ei.completedQScale}, but policyTarget is visits: it scales the completed-q target only`,
      });
    }
    if (ei.openingPliesMax !== null && ei.openingPliesMax < ei.openingPlies) {
      ctx.addIssue({
        code: 'custom',
        path: ['openingPliesMax'],
        message: `is ${ei.openingPliesMax}, below openingPlies (${ei.openingPlies})`,
      });
    }
  });
export type ExpertIterationSettings = z.output<typeof expertIterationSettingsSchema>;

/** The config of an expert-iteration run. */
export type ExpertIterationConfig = ConfigOf<
  'expert-iteration',
  'expertIteration',
  ExpertIterationSettings
>;
