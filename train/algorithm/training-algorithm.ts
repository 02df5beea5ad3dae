import type * as tfType from '@tensorflow/tfjs';
import type { Random } from '../../env/random.ts';
import type { Rules } from '../../env/rules.ts';
import type { Tf } from '../../models/backend.ts';
import type { InferenceEngine } from '../../models/inference/inference-engine.ts';
import type { MlpWeights } from '../../models/mlp-runner.ts';
import type { SelfPlayStats, UpdateStats } from '../iteration-stats.ts';

/** An algorithm's own metrics.csv columns for an iteration (those of other algorithms stay empty). */
export type OwnMetrics = Readonly<Record<string, number | string>>;

/**
 * Positions an algorithm trains on beyond one iteration (a replay window), as
 * every checkpoint keeps them: game states, policy targets and value targets,
 * rather than their larger, derived observations.
 */
export interface PositionWindow {
  /** Rows added by each iteration in the window, oldest first. */
  readonly iterationRows: readonly number[];
  /** STATE_SIZE numbers per row. */
  readonly states: Float32Array;
  /** NUM_ACTIONS numbers per row. */
  readonly policies: Float32Array;
  readonly values: Float32Array;
}

/**
 * Earlier snapshots of the policy that an algorithm plays against, kept with
 * the run: each one's policy file in the run's pool/ folder, their list in
 * every checkpoint.
 */
export interface PolicySnapshots {
  /** The most snapshots kept (pool/ keeps those the kept checkpoints need). */
  readonly capacity: number;
  /** A snapshot of `iteration`, saved at `path` (relative to the run folder). */
  add(iteration: number, path: string, weights: MlpWeights): void;
  entries(): readonly { readonly iteration: number; readonly path: string }[];
}

/**
 * What the training loop asks of an algorithm: its games, then its gradient
 * steps on what they produced. Everything random is drawn from the run's
 * generator, in a fixed order, so that resume stays exact.
 */
export interface TrainingAlgorithm {
  /** What computes the update's gradients: `onnx` (onnxruntime-node) or `tfjs`. */
  readonly gradientBackend: 'onnx' | 'tfjs';
  /** Where the update's gradients run, for the run's first line (`8 slices on 2 threads`; MinibatchUpdater.gradientThreads). */
  readonly gradientThreads?: string;
  /** The snapshots it plays against, saved with the run; null if it plays none. */
  readonly snapshots: PolicySnapshots | null;
  /** Starts fresh games (at run start and at each checkpoint boundary). */
  reset(seed: number, rng: Random): void;
  /** Plays this iteration's games (the run's `iteration`, from 1) and keeps what the update learns from. */
  collect(rng: Random, iteration: number): Promise<SelfPlayStats>;
  /** Gradient steps on what the last `collect` kept (their gradients may be computed on worker threads). */
  update(rng: Random): UpdateStats | Promise<UpdateStats>;
  /** The columns of metrics.csv only this algorithm fills (its descriptor's `metrics`), for the last `collect` and `update`. */
  ownMetrics(): OwnMetrics;
  /** Whether a snapshot of the policy joins `snapshots` after `iteration`. */
  snapshotDue(iteration: number): boolean;
  /** The positions that outlive an iteration, for checkpoints; null if it keeps none. */
  replay(): PositionWindow | null;
  /** Puts a checkpoint's `replay()` back (throws a RangeError naming a mismatch). */
  restoreReplay(saved: PositionWindow | null): void;
  /** Where its iterations' time went so far, for benchmarks (none: it does not say). */
  profile?(): AlgorithmProfile;
  /** Stops what the algorithm runs besides tensors (self-play worker threads). */
  dispose(): Promise<void>;
}

/** What an algorithm tells benchmarks of where its time went. */
export interface AlgorithmProfile {
  /** Each self-play shard's seconds in the last iteration, where it played (none without shards). */
  readonly shardSeconds: readonly number[];
  /** Counts of its own over the run so far (expert iteration: the network's `evaluations`). */
  readonly tallies: Readonly<Record<string, number>>;
  /**
   * Seconds this thread has spent so far on the update's part that worker
   * threads share (the gradient slices and their sums, filling minibatches
   * while the helpers compute).
   */
  readonly updateSharedSeconds: number;
}

/** What every algorithm is built from: the run's rules, its network and its optimiser. */
export interface LearnerParts {
  readonly tf: Tf;
  readonly rules: Rules;
  readonly obsSize: number;
  readonly model: tfType.LayersModel;
  readonly optimizer: tfType.AdamOptimizer;
  /** What runs the network in self-play (models/inference/) and, with onnxruntime-node, the update's gradients. */
  readonly inference: InferenceEngine;
}
