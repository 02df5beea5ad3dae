import { DEFAULT_ENDGAME_SEEDS } from '../../eval/endgame-cache.ts';
import {
  type Algorithm,
  DEFAULT_COMPLETED_Q_SCALE,
  type ExpertIterationSettings,
  type PpoConfig,
  type PpoSettings,
  type SharedSettings,
} from './schema.ts';

/** Settings a preset, a config file or the command line gives: any shared ones, and fields of the algorithm's block. */
export type ConfigLayer = Partial<SharedSettings> & {
  readonly algorithm?: Algorithm;
  readonly ppo?: Partial<PpoSettings>;
  readonly expertIteration?: Partial<ExpertIterationSettings>;
};

const ANY_ALGORITHM = Symbol('a preset');

/**
 * A named starting point. Unlike a config file or flags, a preset may hold
 * blocks for both algorithms: a run takes its own algorithm's block and
 * leaves the other (so `smoke` is small for PPO and expert iteration alike).
 */
export type Preset = ConfigLayer & { readonly [ANY_ALGORITHM]: true };

function preset(layer: ConfigLayer): Preset {
  return { ...layer, [ANY_ALGORITHM]: true };
}

/** True for a preset (or a copy of one made by spreading it). */
export function isPreset(layer: object): boolean {
  return ANY_ALGORITHM in layer;
}

/** The shared settings of a run that sets nothing. */
export const DEFAULT_SHARED: SharedSettings = {
  name: 'default',
  runsDir: 'runs',
  seed: 1,
  backend: 'auto',
  iterations: 60,
  timeLimitMinutes: null,
  hidden: [128, 128],
  activation: 'relu',
  encoding: 'counts',
  lookahead: true,
  lookaheadEncoding: 'counts',
  captureSeedStays: false,
  leftoverTo: 'opponent',
  maxPlies: 200,
  learningRate: 3e-4,
  learningRateDecay: false,
  minibatchSize: 1024,
  valueCoef: 0.5,
  maxGradNorm: 0.5,
  checkpointEvery: 5,
  keepCheckpoints: 3,
  evalEvery: 10,
  evalGames: 100,
  evalOpponents: ['random', 'greedy', 'minimax:1', 'minimax:2'],
  evalOpeningPlies: 4,
  extraEvalOpeningPlies: [],
  // The whole main set: a fraction of a second for the policy alone, and intervals of +-2.5 points
  // rather than +-5.5 on a sample of 200, which hid any trend in a run's curve.
  evalAccuracyPositions: 1001,
  finalEvalGames: 400,
  workers: 2,
  progress: true,
};

export const DEFAULT_ALGORITHM: Algorithm = 'ppo';

/** The settings of each algorithm's block that a run does not set. */
export const DEFAULT_BLOCKS: {
  readonly ppo: PpoSettings;
  readonly expertIteration: ExpertIterationSettings;
} = {
  ppo: {
    numEnvs: 256,
    rolloutSteps: 32,
    epochs: 4,
    clip: 0.2,
    gamma: 1,
    gaeLambda: 0.95,
    entropyCoef: 0.01,
    openingPlies: 4,
    poolShare: 0.2,
    poolSize: 10,
    snapshotEvery: 5,
    baselineShare: 0,
    baselineOpponents: ['greedy'],
  },
  expertIteration: {
    gamesAtOnce: 256,
    movesPerIteration: 256 * 32,
    selfPlayShards: 1,
    simulations: 16,
    fullSearchShare: 1,
    cheapSimulations: 4,
    policyTarget: 'completed-q',
    completedQScale: DEFAULT_COMPLETED_Q_SCALE,
    searchValueWeight: 0,
    solverNodes: 0,
    solverPlaysProven: false,
    alphaBetaDepth: 0,
    alphaBetaShare: 1,
    solverEndgameSeeds: DEFAULT_ENDGAME_SEEDS,
    replayIterations: 1,
    epochs: 4,
    openingPlies: 4,
    openingPliesMax: null,
    balancedOpenings: false,
  },
};

/** The config of a run that sets nothing: PPO with the defaults above. */
export const DEFAULT_CONFIG: PpoConfig = {
  ...DEFAULT_SHARED,
  algorithm: DEFAULT_ALGORITHM,
  ppo: DEFAULT_BLOCKS.ppo,
};

/**
 * Expert iteration as `npm start` and the pretrained policy run it: its
 * searches on both cores (two self-play shards), each update two epochs over
 * the last two iterations' games, value targets half outcome, half search
 * value, openings of 0-8 random plies, balanced.
 */
const EXPERT_ITERATION: ConfigLayer = {
  algorithm: 'expert-iteration',
  learningRate: 1e-3,
  learningRateDecay: true,
  valueCoef: 1,
  extraEvalOpeningPlies: [2],
  expertIteration: {
    simulations: 16,
    selfPlayShards: 2,
    searchValueWeight: 0.5,
    replayIterations: 2,
    epochs: 2,
    openingPlies: 0,
    openingPliesMax: 8,
    balancedOpenings: true,
  },
};

/** Named starting points; flags and --config files override them. */
export const PRESETS: Record<string, Preset> = {
  /**
   * `npm start`: a small agent in under 10 minutes on 2 cores, by expert
   * iteration. A fixed number of iterations keeps the run reproducible; the
   * time limit is only a safety net: 8.5 minutes cut the run at iteration 228
   * on a day this machine ran 35% slower, so its tables differed from the
   * README's; 9.3 minutes fits all 240 at that speed, still within the 10
   * minutes. Each setting here beat the one before it against minimax:4 on
   * fresh openings and on the accuracy benchmark (docs/experiments/): a learning
   * rate of 0.003 rather than 0.001 (with four epochs, 38.5% against 34.0%);
   * the board as a thermometer (seeds >= 1 .. >= 12 per pit) rather than
   * seeds / 12 (45.1% against 41.4% over three training seeds); two 256-wide
   * layers with two epochs an update rather than two 128-wide ones with four
   * (50.4% against 45.6% over three seeds, a point fewer errors on the
   * hold-out, for about a sixth more time).
   */
  quick: preset({
    ...EXPERT_ITERATION,
    name: 'quickstart',
    iterations: 240,
    timeLimitMinutes: 9.3,
    evalEvery: 40,
    encoding: 'thermometer',
    hidden: [256, 256],
    learningRate: 3e-3,
  }),
  /** `npm start` by PPO (5 min 21 s here), for comparison. */
  'quick-ppo': preset({
    name: 'quickstart-ppo',
    iterations: 450,
    timeLimitMinutes: 9,
    evalEvery: 25,
    ppo: { baselineShare: 0.2, baselineOpponents: ['minimax:1', 'minimax:2'] },
  }),
  /**
   * The shipped pretrained policy (under an hour on 2 cores): expert iteration
   * as `quick` with a wider and deeper network, evaluated against minimax:4 too.
   * Three 256-wide layers beat two 57.5% head to head as policies alone; four,
   * trained for 2100 iterations, beat three (1300 iterations) 55.8%. An
   * iteration takes 1.2-1.6 s on the 2-core machines it was made on, so 2100
   * fit in 43-57 minutes and the learning rate decays to zero as they end; the
   * time limit stops a slower machine before the hour. The board as a
   * thermometer, as in `quick`: at 2100 iterations it beat the counts network
   * 52.2% head to head and scored 51.1% against minimax:6 to its 49.0% over
   * 12 000 games (docs/experiments/2026-12-03-pretrained-thermometer-board.md).
   */
  long: preset({
    ...EXPERT_ITERATION,
    name: 'pretrained',
    iterations: 2100,
    timeLimitMinutes: 58,
    encoding: 'thermometer',
    hidden: [256, 256, 256, 256],
    checkpointEvery: 10,
    evalEvery: 50,
    evalOpponents: ['random', 'greedy', 'minimax:2', 'minimax:4'],
  }),
  /** The PPO run that made the earlier pretrained policy (43.9 minutes here), for comparison. */
  'long-ppo': preset({
    name: 'pretrained-ppo',
    iterations: 1500,
    // As the prototype measured: 2 random opening plies in training and evaluation.
    evalOpeningPlies: 2,
    extraEvalOpeningPlies: [4],
    timeLimitMinutes: 52,
    hidden: [256, 256],
    learningRateDecay: true,
    checkpointEvery: 10,
    evalEvery: 50,
    evalOpponents: ['random', 'greedy', 'minimax:2', 'minimax:4'],
    ppo: { openingPlies: 2, baselineShare: 0.25, baselineOpponents: ['minimax:2', 'minimax:4'] },
  }),
  /** For tests: seconds, not minutes, with either algorithm (PPO unless a test says otherwise). */
  smoke: preset({
    name: 'smoke',
    iterations: 2,
    hidden: [16],
    minibatchSize: 64,
    checkpointEvery: 1,
    evalEvery: 1,
    evalGames: 4,
    finalEvalGames: 4,
    evalOpponents: ['random'],
    workers: 0,
    progress: false,
    ppo: { numEnvs: 16, rolloutSteps: 8, epochs: 1 },
    expertIteration: { gamesAtOnce: 16, movesPerIteration: 16 * 8, epochs: 1 },
  }),
};
