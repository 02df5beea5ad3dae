import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import type { TrainConfig } from '../config/schema.ts';

/**
 * Samples of one rollout, allocated once at full size. Each sample is one move
 * by the learner. Moves by the same player in the same game are chained through
 * `next`, so that each player's moves are credited with that player's own
 * result (self-play is zero-sum: the winner's moves get +1, the loser's -1).
 */
export class RolloutBuffer {
  size = 0;
  readonly observations: Float32Array;
  readonly masks: Uint8Array;
  readonly actions: Uint8Array;
  readonly logProbs: Float32Array;
  readonly values: Float32Array;
  /** Reward received between this move and the same player's next move. */
  readonly rewards: Float32Array;
  /** 1 when the game ended before the player's next move. */
  readonly dones: Uint8Array;
  /** The same player's next sample in the same game, or -1. */
  readonly next: Int32Array;
  /** Value of the player's next state when the rollout stopped first (`next` = -1, not done). */
  readonly bootstrap: Float32Array;
  readonly advantages: Float32Array;
  readonly returns: Float32Array;

  constructor(
    readonly capacity: number,
    readonly obsSize: number,
  ) {
    this.observations = new Float32Array(capacity * obsSize);
    this.masks = new Uint8Array(capacity * NUM_ACTIONS);
    this.actions = new Uint8Array(capacity);
    this.logProbs = new Float32Array(capacity);
    this.values = new Float32Array(capacity);
    this.rewards = new Float32Array(capacity);
    this.dones = new Uint8Array(capacity);
    this.next = new Int32Array(capacity);
    this.bootstrap = new Float32Array(capacity);
    this.advantages = new Float32Array(capacity);
    this.returns = new Float32Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  /** Appends a move; returns its index. */
  add(
    observations: Float32Array,
    row: number,
    masks: Uint8Array,
    action: number,
    logProb: number,
    value: number,
  ): number {
    if (this.size >= this.capacity)
      throw new Error(`rollout buffer full (${this.capacity} samples)`);
    const k = this.size++;
    this.observations.set(
      observations.subarray(row * this.obsSize, (row + 1) * this.obsSize),
      k * this.obsSize,
    );
    this.masks.set(masks.subarray(row * NUM_ACTIONS, (row + 1) * NUM_ACTIONS), k * NUM_ACTIONS);
    this.actions[k] = action;
    this.logProbs[k] = logProb;
    this.values[k] = value;
    this.rewards[k] = 0;
    this.dones[k] = 0;
    this.next[k] = -1;
    this.bootstrap[k] = 0;
    return k;
  }
}

/**
 * Generalised advantage estimation along each player's own chain of moves.
 * A chain's next sample always has a larger index, so one backward pass works.
 */
export function computeAdvantages(buffer: RolloutBuffer, gamma: number, lambda: number): void {
  const { values, rewards, dones, next, bootstrap, advantages, returns } = buffer;
  for (let k = buffer.size - 1; k >= 0; k--) {
    const n = next[k] as number;
    const done = dones[k] === 1;
    const nextValue = done ? 0 : n >= 0 ? (values[n] as number) : (bootstrap[k] as number);
    const delta = (rewards[k] as number) + gamma * nextValue - (values[k] as number);
    const carry = !done && n >= 0 ? (advantages[n] as number) : 0;
    advantages[k] = delta + gamma * lambda * carry;
    returns[k] = (advantages[k] as number) + (values[k] as number);
  }
}

/**
 * The trainer's advantage estimate for a rollout: GAE with the run's gamma and
 * lambda for PPO, full Monte Carlo returns (lambda = 1) for REINFORCE.
 */
export function estimateAdvantages(
  buffer: RolloutBuffer,
  config: {
    readonly algorithm: TrainConfig['algorithm'];
    readonly gamma: number;
    readonly gaeLambda: number;
  },
): void {
  computeAdvantages(buffer, config.gamma, config.algorithm === 'reinforce' ? 1 : config.gaeLambda);
}
