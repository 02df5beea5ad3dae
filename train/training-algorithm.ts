import type { Random } from '../env/random.ts';
import type { SearchBufferContents } from './expert-iteration/replay-buffer.ts';
import type { UpdateStats } from './ppo/policy-update.ts';
import type { RolloutStats } from './ppo/rollouts.ts';

/**
 * What the training loop asks of an algorithm (PPO and REINFORCE in
 * policy-gradient.ts, expert iteration in alphazero.ts): its games, then its
 * gradient steps on what they produced. Everything random is drawn from the
 * run's generator, in a fixed order, so that resume stays exact.
 */
export interface TrainingAlgorithm {
  /** Starts fresh games (at run start and at each checkpoint boundary). */
  reset(seed: number, rng: Random): void;
  /** Plays this iteration's games and keeps what the update learns from. */
  collect(rng: Random): Promise<RolloutStats>;
  /** Gradient steps on what the last `collect` kept. */
  update(rng: Random): UpdateStats;
  /** Training data that outlives an iteration (expert iteration's replay window), for checkpoints; null if none. */
  replay(): SearchBufferContents | null;
  /** Puts a checkpoint's `replay()` back (throws a RangeError naming a mismatch). */
  restoreReplay(saved: SearchBufferContents | null): void;
  /** Stops what the algorithm runs besides tensors (self-play worker threads). */
  dispose(): Promise<void>;
}
