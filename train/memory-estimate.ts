import { treeBytes } from '../agents/puct/tree.ts';
import { observationSize } from '../env/gym/observation.ts';
import { core } from '../env/index.ts';
import { NUM_ACTIONS } from '../models/mlp-runner.ts';
import {
  type ExpertIterationConfig,
  observationOf,
  type PpoConfig,
  type SharedSettings,
  type TrainConfig,
} from './config/schema.ts';

const { STATE_SIZE } = core;

/** One thing a run keeps in memory, and the settings its size follows. */
export interface MemoryPart {
  readonly what: string;
  readonly bytes: number;
  /** `gamesAtOnce 8192`: the settings that size it, with their values. */
  readonly settings: readonly string[];
}

/** What a run (or one job of it) is estimated to need, before anything is allocated. */
export interface MemoryEstimate {
  readonly bytes: number;
  /** Largest first. */
  readonly parts: readonly MemoryPart[];
}

/** Node.js with the inference and gradient runtimes loaded, before a run allocates its own. */
export const PROCESS_BYTES = 256 * 1024 * 1024;
/** A worker thread (a self-play shard's, an evaluation's): its own copy of the code and heap. */
const THREAD_BYTES = 48 * 1024 * 1024;

/** A self-play game's logged move: its board, the policy target, the value target, the solver's bounds. */
const LOGGED_MOVE_BYTES = STATE_SIZE + NUM_ACTIONS * 4 + 4 + 2;
/** A finished game's position handed to the learner: board, policy target, value target. */
const POSITION_BYTES = STATE_SIZE + NUM_ACTIONS * 4 + 4;
/** A replay row besides its observation: board, legal mask, policy and value targets. */
const REPLAY_ROW_BYTES = STATE_SIZE + 2 * NUM_ACTIONS * 4 + 4;
/**
 * A replay row in a checkpoint: its copy as float32 numbers (board, policy,
 * value), then that copy as base64 text in the checkpoint's JSON.
 */
const CHECKPOINT_ROW_BYTES = ((STATE_SIZE + NUM_ACTIONS + 1) * 4 * 7) / 3;

/** The network's parameters: every hidden layer, the policy head and the value head. */
function parameters(inputs: number, hidden: readonly number[]): number {
  let count = 0;
  let width = inputs;
  for (const out of [...hidden, NUM_ACTIONS, 1]) {
    count += width * out + out;
    width = out;
  }
  return count;
}

const part = (what: string, bytes: number, settings: Record<string, unknown>): MemoryPart => ({
  what,
  bytes,
  settings: Object.entries(settings).map(([name, value]) => `${name} ${JSON.stringify(value)}`),
});

/**
 * The network and its update: the weights in tfjs with Adam's two moments,
 * the gradient session's copy with its gradients, one copy a thread that runs
 * it, and a minibatch's activations forward and back.
 */
function networkPart(config: SharedSettings, threads: number): MemoryPart {
  const inputs = observationSize(observationOf(config));
  const weights = parameters(inputs, config.hidden) * 4;
  const widths = config.hidden.reduce((sum, width) => sum + width, inputs + NUM_ACTIONS + 1);
  const activations = config.minibatchSize * widths * 4 * 4;
  return part('the network and its update', weights * (5 + threads) + activations, {
    hidden: config.hidden,
    minibatchSize: config.minibatchSize,
  });
}

/** The games one self-play shard plays at once, and their searches. */
function shardGamesParts(config: ExpertIterationConfig, games: number): MemoryPart[] {
  const ei = config.expertIteration;
  const inputs = observationSize(observationOf(config));
  // The logs are copied once more when a shard hands its games in progress back.
  const perGame = 2 * config.maxPlies * LOGGED_MOVE_BYTES + STATE_SIZE + inputs * 4;
  return [
    part('self-play games in progress', games * perGame, {
      gamesAtOnce: ei.gamesAtOnce,
      maxPlies: config.maxPlies,
    }),
    part('their search trees', games * treeBytes(ei.simulations), {
      gamesAtOnce: ei.gamesAtOnce,
      simulations: ei.simulations,
    }),
  ];
}

/** An iteration's finished positions (the log doubles as it fills). */
function positionsPart(config: ExpertIterationConfig, moves: number): MemoryPart {
  return part("an iteration's positions", 2 * moves * POSITION_BYTES, {
    movesPerIteration: config.expertIteration.movesPerIteration,
  });
}

function total(parts: readonly MemoryPart[], threads: number): MemoryEstimate {
  const all = [
    ...parts,
    part('the process and its threads', PROCESS_BYTES + threads * THREAD_BYTES, {
      workers: threads,
    }),
  ].sort((a, b) => b.bytes - a.bytes);
  return { bytes: all.reduce((sum, p) => sum + p.bytes, 0), parts: all };
}

function expertIterationParts(config: ExpertIterationConfig): MemoryPart[] {
  const ei = config.expertIteration;
  const inputs = observationSize(observationOf(config));
  const rows = ei.movesPerIteration * ei.replayIterations;
  return [
    ...shardGamesParts(config, ei.gamesAtOnce),
    positionsPart(config, ei.movesPerIteration),
    part(
      'the replay window, and its copy in a checkpoint',
      rows * (inputs * 4 + REPLAY_ROW_BYTES + CHECKPOINT_ROW_BYTES),
      { movesPerIteration: ei.movesPerIteration, replayIterations: ei.replayIterations },
    ),
  ];
}

function ppoParts(config: PpoConfig): MemoryPart[] {
  const { ppo } = config;
  const inputs = observationSize(observationOf(config));
  // A step's observation, mask, logits and six scalars (action, reward, value, log-prob, done, return).
  const step = inputs * 4 + NUM_ACTIONS * 4 * 2 + 6 * 4;
  const weights = parameters(inputs, config.hidden) * 4;
  return [
    part('the rollouts', ppo.numEnvs * ppo.rolloutSteps * step + 2 * ppo.numEnvs * inputs * 4, {
      numEnvs: ppo.numEnvs,
      rolloutSteps: ppo.rolloutSteps,
    }),
    part('the opponent pool', ppo.poolSize * weights, {
      poolSize: ppo.poolSize,
      hidden: config.hidden,
    }),
  ];
}

/**
 * The memory a whole run of `config` needs on one machine, from its settings
 * alone: an estimate of the arrays that grow with them (games in progress,
 * search trees, replay window, network), so that a run that would exhaust
 * the machine is refused before it allocates them.
 */
export function estimateRunMemory(config: TrainConfig): MemoryEstimate {
  const threads = Math.max(1, config.workers);
  const own =
    config.algorithm === 'expert-iteration' ? expertIterationParts(config) : ppoParts(config);
  return total([...own, networkPart(config, threads)], threads);
}

/** The memory one self-play shard's job needs on a queue worker: its games, their searches, its moves. */
export function estimateShardMemory(config: ExpertIterationConfig, moves: number): MemoryEstimate {
  const ei = config.expertIteration;
  const games = Math.ceil(ei.gamesAtOnce / ei.selfPlayShards);
  const inputs = observationSize(observationOf(config));
  const network = part('the network', 2 * parameters(inputs, config.hidden) * 4, {
    hidden: config.hidden,
  });
  return total([...shardGamesParts(config, games), positionsPart(config, moves), network], 1);
}
