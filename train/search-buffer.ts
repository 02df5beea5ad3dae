import { NUM_ACTIONS } from '../models/mlp-runner.ts';

/**
 * What expert iteration learns from: positions of finished self-play games
 * (as observations with their legal-action masks), the search's improved
 * policy at each, and the game's outcome for the player who moved there.
 * Grows as needed; `clear` keeps the memory.
 */
export class SearchBuffer {
  size = 0;
  observations: Float32Array;
  masks: Float32Array;
  policies: Float32Array;
  outcomes: Float32Array;

  constructor(
    private capacity: number,
    readonly obsSize: number,
  ) {
    this.observations = new Float32Array(capacity * obsSize);
    this.masks = new Float32Array(capacity * NUM_ACTIONS);
    this.policies = new Float32Array(capacity * NUM_ACTIONS);
    this.outcomes = new Float32Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  /** Reserves a row and returns its index; the caller fills the row's arrays. */
  addRow(): number {
    if (this.size === this.capacity) this.#grow(this.capacity * 2);
    return this.size++;
  }

  #grow(capacity: number): void {
    const grow = (prev: Float32Array, width: number): Float32Array => {
      const next = new Float32Array(capacity * width);
      next.set(prev);
      return next;
    };
    this.observations = grow(this.observations, this.obsSize);
    this.masks = grow(this.masks, NUM_ACTIONS);
    this.policies = grow(this.policies, NUM_ACTIONS);
    this.outcomes = grow(this.outcomes, 1);
    this.capacity = capacity;
  }
}
