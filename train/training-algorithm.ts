import type * as tfType from '@tensorflow/tfjs';
import type { Random } from '../env/random.ts';
import type { Rules } from '../env/rules.ts';
import type { Tf } from '../models/backend.ts';
import type { InferenceEngine } from '../models/inference/inference-engine.ts';
import type { ReplayContents } from './expert-iteration/replay-buffer.ts';
import type { OpponentPool } from './ppo/opponent-pool.ts';

/** What every algorithm's self-play reports of an iteration (metrics.csv's shared columns). */
export interface SelfPlayStats {
  /** Plies played (PPO: all seats; expert iteration: searched moves). */
  plies: number;
  /** Games finished. */
  games: number;
  /** Samples the update learns from that this iteration added. */
  learnerSamples: number;
  seconds: number;
  /** Mean length of the games finished in this iteration. */
  meanGamePlies: number;
}

/** What every algorithm's update reports. */
export interface UpdateStats {
  policyLoss: number;
  valueLoss: number;
  entropy: number;
  /** Samples run through the update, epochs counted. */
  samples: number;
  seconds: number;
}

/** An algorithm's own metrics.csv columns for an iteration (the other algorithm's stay empty). */
export type OwnMetrics = Readonly<Record<string, number | string>>;

/**
 * What the training loop asks of an algorithm (PPO and REINFORCE in ppo/,
 * expert iteration in expert-iteration/): its games, then its gradient steps
 * on what they produced. Everything random is drawn from the run's generator,
 * in a fixed order, so that resume stays exact.
 */
export interface TrainingAlgorithm {
  /** What computes the update's gradients: `onnx` (onnxruntime-node) or `tfjs`. */
  readonly gradientBackend: 'onnx' | 'tfjs';
  /** Earlier snapshots of the policy it plays against (PPO), saved with the run; null if none. */
  readonly opponents: OpponentPool | null;
  /** Starts fresh games (at run start and at each checkpoint boundary). */
  reset(seed: number, rng: Random): void;
  /** Plays this iteration's games (the run's `iteration`, from 1) and keeps what the update learns from. */
  collect(rng: Random, iteration: number): Promise<SelfPlayStats>;
  /** Gradient steps on what the last `collect` kept. */
  update(rng: Random): UpdateStats;
  /** The columns of metrics.csv only this algorithm fills, for the last `collect` and `update`. */
  ownMetrics(): OwnMetrics;
  /** Whether a snapshot of the policy joins `opponents` after `iteration`. */
  snapshotDue(iteration: number): boolean;
  /** Training data that outlives an iteration (expert iteration's replay window), for checkpoints; null if none. */
  replay(): ReplayContents | null;
  /** Puts a checkpoint's `replay()` back (throws a RangeError naming a mismatch). */
  restoreReplay(saved: ReplayContents | null): void;
  /** Stops what the algorithm runs besides tensors (self-play worker threads). */
  dispose(): Promise<void>;
}

/** What every algorithm is built from: the run's rules, its network and its optimiser. */
export interface LearnerParts {
  readonly tf: Tf;
  readonly rules: Rules;
  readonly obsSize: number;
  readonly model: tfType.LayersModel;
  readonly optimizer: tfType.AdamOptimizer;
  /** What runs the network in self-play (models/inference/) and, with onnxruntime-node, expert iteration's gradients. */
  readonly inference: InferenceEngine;
}
