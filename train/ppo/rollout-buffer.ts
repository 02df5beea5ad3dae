import { NUM_ACTIONS } from '../../models/mlp-runner.ts';

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
