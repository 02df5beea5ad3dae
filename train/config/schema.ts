import { z } from 'zod';
import { type ObservationConfig, observationConfigSchema } from '../../env/gym/observation.ts';
import { DEFAULT_ENDGAME_SEEDS, MAX_ENDGAME_SEEDS } from '../../eval/endgame-cache.ts';
import { BACKEND_CHOICES } from '../../models/backend.ts';
import { networkConfigSchema } from '../../models/policy-value-model.ts';

const network = networkConfigSchema.shape;
const observation = observationConfigSchema.shape;

/**
 * A name that is one plain folder inside its parent: never `.`, `..` or a
 * path, so that a run or sweep stays inside its runs folder.
 */
export const folderNameSchema = z
  .string()
  .regex(/^[\w.-]+$/, 'letters, digits, _ . - only')
  .refine((n) => n !== '.' && n !== '..', 'must be a folder name, not . or ..');

/**
 * A training config: the settings every run has, the algorithm, and the
 * block of settings of that algorithm (`ppo` for PPO and REINFORCE,
 * `expertIteration` for expert iteration). Every `.describe()` text is the
 * `ayoayo train --help` text of its flag (config/flags.ts maps the flat,
 * kebab-case flags into this nesting), and the parsed config is saved with
 * the run as its config.json.
 */

export const ALGORITHMS = ['ppo', 'reinforce', 'expert-iteration'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

export const algorithmSchema = z
  .enum(ALGORITHMS)
  .describe(
    'PPO (clipped), REINFORCE with a value baseline, or expert iteration (AlphaZero-style: every self-play move by a Gumbel search with the network, which learns the search’s improved policy and the outcome)',
  );

/** Where the run lives and what it runs on: first in a config, before the algorithm. */
const runShape = {
  name: folderNameSchema.describe('run name: the run lives in runs/NAME/'),
  runsDir: z.string().min(1).describe('folder that holds the runs'),
  seed: z.number().int().nonnegative().describe('seed for everything random in the run'),
  backend: z.enum(BACKEND_CHOICES).describe('tfjs backend (auto: tfjs-node, else wasm, else cpu)'),
};

/** The settings of every algorithm, after `algorithm`. */
const commonShape = {
  iterations: z
    .number()
    .int()
    .positive()
    .describe('training iterations (self-play games, then an update, each)'),
  timeLimitMinutes: z
    .number()
    .positive()
    .nullable()
    .describe('stop after this many minutes of training (null: no limit)'),
  // The network and the observation keep the rules of the schemas that own them.
  hidden: network.hidden.describe('hidden layer widths'),
  activation: network.activation.describe('hidden activation'),
  encoding: observation.encoding.unwrap().describe('board encoding of the observation'),
  lookahead: observation.lookahead
    .unwrap()
    .describe('add engine-computed features of each action’s result'),
  // Optional in a saved config.json: runs from before it existed saw counts there.
  lookaheadEncoding: observation.lookaheadEncoding.describe(
    'encoding of the board after each action in the lookahead features (counts, onehot or thermometer)',
  ),
  captureSeedStays: z.boolean().describe('rule option: the capturing seed stays in its pit'),
  leftoverTo: z.enum(['opponent', 'owner']).describe('rule option: who takes the leftover seeds'),
  maxPlies: z
    .number()
    .int()
    .min(10)
    .max(10000)
    .describe('move cap; a capped game is a draw (reward 0)'),
  learningRate: z.number().positive().max(1).describe('Adam learning rate'),
  learningRateDecay: z.boolean().describe('anneal the learning rate linearly to 10% over the run'),
  minibatchSize: z.number().int().min(16).max(65536).describe('samples per gradient step'),
  valueCoef: z.number().min(0).describe('value loss weight'),
  maxGradNorm: z.number().positive().describe('gradient clipping by global norm'),
  checkpointEvery: z.number().int().min(1).describe('iterations between checkpoints'),
  keepCheckpoints: z
    .number()
    .int()
    .min(1)
    .describe('newest checkpoints kept on disk (plus the best and the latest)'),
  evalEvery: z
    .number()
    .int()
    .min(1)
    .describe('iterations between evaluations against the baselines'),
  evalGames: z
    .number()
    .int()
    .min(2)
    .describe('games per baseline at each evaluation (half from each seat)'),
  evalOpponents: z.array(z.string()).min(1).describe('baselines the policy is evaluated against'),
  evalOpeningPlies: z
    .number()
    .int()
    .min(0)
    .max(20)
    .describe('random opening plies of evaluation games'),
  extraEvalOpeningPlies: z
    .array(z.number().int().min(0).max(20))
    .describe('more opening depths of the final evaluation, one table each'),
  evalAccuracyPositions: z
    .number()
    .int()
    .min(0)
    .default(1001)
    .describe(
      "positions of the accuracy benchmark's main set (docs/accuracy.md) the policy's moves are scored on at each evaluation, the same ones each time (1001: all of them; 0: none)",
    ),
  finalEvalGames: z
    .number()
    .int()
    .min(2)
    .describe('games per baseline in the evaluation at the end'),
  workers: z
    .number()
    .int()
    .min(0)
    .describe(
      "worker threads for evaluation games and expert iteration's self-play shards (0: in-process)",
    ),
  progress: z.boolean().describe('show a progress bar'),
};

/** The settings every run has, whatever its algorithm. */
export const sharedSettingsSchema = z.object({ ...runShape, ...commonShape }).strict();
export type SharedSettings = z.infer<typeof sharedSettingsSchema>;

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

const openingPlies = z.number().int().min(0).max(20);

/** PPO's and REINFORCE's settings: rollouts of the sampled policy against itself, pool snapshots and baselines. */
export const ppoSettingsSchema = z
  .object({
    numEnvs: z.number().int().min(1).max(8192).describe('environments stepped in lockstep'),
    rolloutSteps: z.number().int().min(1).max(4096).describe('steps per environment per iteration'),
    epochs: z
      .number()
      .int()
      .min(1)
      .max(50)
      .describe('passes over each rollout (REINFORCE: always 1)'),
    clip: z.number().positive().max(1).describe('PPO clip range'),
    gamma: z.number().min(0).max(1).describe('discount per own move'),
    gaeLambda: z.number().min(0).max(1).describe('GAE lambda (REINFORCE: 1, Monte Carlo returns)'),
    entropyCoef: z.number().min(0).describe('entropy bonus weight'),
    openingPlies: openingPlies.describe('random plies at the start of each training game'),
    poolShare: z
      .number()
      .min(0)
      .max(1)
      .describe('share of games against earlier snapshots of the policy'),
    poolSize: z.number().int().min(1).max(100).describe('snapshots kept in the opponent pool'),
    snapshotEvery: z
      .number()
      .int()
      .min(1)
      .describe('iterations between snapshots added to the pool'),
    baselineShare: z.number().min(0).max(1).describe('share of games against baseline agents'),
    baselineOpponents: z
      .array(z.string())
      .describe('baseline agent specs used as training opponents'),
  })
  .strict()
  .superRefine((ppo, ctx) => {
    if (ppo.baselineShare > 0 && ppo.baselineOpponents.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['baselineShare'],
        message: `is ${ppo.baselineShare} but baselineOpponents is empty: name baseline opponents or set baselineShare to 0`,
      });
    }
  });
export type PpoSettings = z.infer<typeof ppoSettingsSchema>;

/** mctx's c_scale of the completed-Q target. */
export const DEFAULT_COMPLETED_Q_SCALE = 0.1;

/** Expert iteration's settings: searched self-play, its replay window and its update. */
export const expertIterationSettingsSchema = z
  .object({
    gamesAtOnce: z
      .number()
      .int()
      .min(1)
      .max(8192)
      .describe('self-play games played at once, the leaves of their searches batched'),
    movesPerIteration: z
      .number()
      .int()
      .min(1)
      .max(1 << 25)
      .describe('searched moves per iteration over all games (played on until one game has ended)'),
    selfPlayShards: z
      .number()
      .int()
      .min(1)
      .max(64)
      .describe(
        'the self-play games are split into this many shards, each with its own random generator, played at once on up to `workers` threads (the run is the same for any number of workers)',
      ),
    simulations: z
      .number()
      .int()
      .min(1)
      .max(1024)
      .describe('simulations of the search behind each self-play move'),
    fullSearchShare: z
      .number()
      .gt(0)
      .max(1)
      .default(1)
      .describe(
        'playout cap randomization (KataGo): the share of self-play moves searched with `simulations`, drawn move by move; only their positions are trained on, the other moves get a cheap search of cheapSimulations (1: every move in full)',
      ),
    cheapSimulations: z
      .number()
      .int()
      .min(1)
      .max(1024)
      .default(4)
      .describe(
        'simulations of the cheap searches of playout cap randomization (fullSearchShare below 1)',
      ),
    policyTarget: z
      .enum(['completed-q', 'visits'])
      .describe(
        "the policy target, Gumbel MuZero's completed-Q improved policy or AlphaZero's visit counts",
      ),
    completedQScale: z
      .number()
      .gt(0)
      .max(10)
      .default(DEFAULT_COMPLETED_Q_SCALE)
      .describe(
        "c_scale of the completed-Q policy target (Gumbel MuZero's sigma): how far the search's values sharpen the target beyond the network's prior; lower is softer (policyTarget completed-q only)",
      ),
    searchValueWeight: z
      .number()
      .min(0)
      .max(1)
      .describe(
        "weight of the search's root value in the value target, the rest being the game's outcome",
      ),
    solverNodes: z
      .number()
      .int()
      .min(0)
      .max(1 << 24)
      .default(0)
      .describe(
        'nodes of the exact solver on each searched position: where it proves the value, the value target is the proven result, and moves proven to lose it leave the policy target (0: no solver)',
      ),
    solverPlaysProven: z
      .boolean()
      .default(false)
      .describe(
        'where the solver proves the value, it moves instead of the search (a value-keeping move at random, the policy target uniform over them), saving the network for the positions it cannot prove; with solverNodes only',
      ),
    alphaBetaDepth: z
      .number()
      .int()
      .min(0)
      .max(16)
      .default(0)
      .describe(
        "plies of the alpha-beta teacher: on a trained position the solver did not prove, the policy target is uniform over the moves a fixed-depth alpha-beta search on the store difference rates best, instead of the search's (0: no teacher)",
      ),
    alphaBetaShare: z
      .number()
      .gt(0)
      .max(1)
      .default(1)
      .describe(
        'the share of those positions the alpha-beta teacher takes, drawn position by position; with alphaBetaDepth only',
      ),
    solverEndgameSeeds: z
      .number()
      .int()
      .min(0)
      .max(MAX_ENDGAME_SEEDS)
      .default(DEFAULT_ENDGAME_SEEDS)
      .describe(
        "the solver looks every board of up to this many seeds up in an endgame table, built once into the user's cache (16: about a minute); with solverNodes only",
      ),
    replayIterations: z
      .number()
      .int()
      .min(1)
      .max(64)
      .describe(
        'each update trains on the positions of the games that ended in the last N iterations',
      ),
    epochs: z
      .number()
      .int()
      .min(1)
      .max(50)
      .describe('passes over the replay window at each update'),
    openingPlies: openingPlies.describe('fewest random plies at the start of each training game'),
    openingPliesMax: openingPlies
      .nullable()
      .describe(
        "with a number, each training game's random opening plies are drawn uniformly from openingPlies..openingPliesMax (null: always openingPlies)",
      ),
    balancedOpenings: z
      .boolean()
      .describe(
        'redraw a training opening until a depth-4 search rates it within 4 seeds, as the tournament does',
      ),
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
    if (ei.fullSearchShare < 1 && ei.cheapSimulations >= ei.simulations) {
      ctx.addIssue({
        code: 'custom',
        path: ['cheapSimulations'],
        message: `is ${ei.cheapSimulations}, not fewer than simulations (${ei.simulations}): a cheap search must be cheaper than a full one`,
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
export type ExpertIterationSettings = z.infer<typeof expertIterationSettingsSchema>;

/** The algorithms whose settings each block holds. */
export const BLOCK_ALGORITHMS = {
  ppo: ['ppo', 'reinforce'],
  expertIteration: ['expert-iteration'],
} as const satisfies Record<string, readonly Algorithm[]>;
export type BlockName = keyof typeof BLOCK_ALGORITHMS;

/** The block that holds `algorithm`'s settings. */
export function blockOf(algorithm: Algorithm): BlockName {
  return algorithm === 'expert-iteration' ? 'expertIteration' : 'ppo';
}

/** Every training setting: the shared ones, the algorithm, and that algorithm's block. */
export const trainConfigSchema = z.discriminatedUnion('algorithm', [
  z
    .object({
      ...runShape,
      algorithm: z.enum(BLOCK_ALGORITHMS.ppo),
      ...commonShape,
      ppo: ppoSettingsSchema,
    })
    .strict(),
  z
    .object({
      ...runShape,
      algorithm: z.enum(BLOCK_ALGORITHMS.expertIteration),
      ...commonShape,
      expertIteration: expertIterationSettingsSchema,
    })
    .strict(),
]);

export type TrainConfig = z.infer<typeof trainConfigSchema>;
export type PpoConfig = Extract<TrainConfig, { algorithm: 'ppo' | 'reinforce' }>;
export type ExpertIterationConfig = Extract<TrainConfig, { algorithm: 'expert-iteration' }>;

export function rulesOf(config: SharedSettings): {
  captureSeedStays: boolean;
  leftoverTo: 'opponent' | 'owner';
} {
  return { captureSeedStays: config.captureSeedStays, leftoverTo: config.leftoverTo };
}
