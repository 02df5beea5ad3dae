import type { ObservationEncoder } from '../../env/gym/observation.ts';
import { core, maskToBytes } from '../../env/index.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import type { PositionWindow } from '../algorithm/training-algorithm.ts';
import type { EncodedPositions, PositionSink } from './position-log.ts';

const { STATE_SIZE } = core;

/**
 * What expert iteration learns from: positions of finished self-play games
 * (kept as game states and as observations with their legal-action masks),
 * the search's improved policy at each, and the value target of the player
 * who moved there. It keeps the positions of the last `window` iterations (a
 * replay window), so that each expensive searched move is trained on more
 * than once without many epochs over one iteration's games; window 1 keeps
 * only the newest. Rows are stored oldest first: dropping an iteration shifts
 * the rest down, a cheap copy next to the searches that produced them.
 */
export class ReplayBuffer implements PositionSink {
  size = 0;
  states: Uint8Array;
  observations: Float32Array;
  masks: Float32Array;
  policies: Float32Array;
  /** The value head's target for the player to move at each row. */
  values: Float32Array;
  /** Rows added by each iteration in the window, oldest first. */
  readonly iterationRows: number[] = [];
  readonly obsSize: number;

  constructor(
    private capacity: number,
    private readonly encoder: ObservationEncoder,
    readonly window = 1,
  ) {
    if (!(Number.isInteger(window) && window >= 1)) {
      throw new RangeError(`replay window must be a positive integer, got ${window}`);
    }
    this.obsSize = encoder.size;
    this.states = new Uint8Array(capacity * STATE_SIZE);
    this.observations = new Float32Array(capacity * this.obsSize);
    this.masks = new Float32Array(capacity * NUM_ACTIONS);
    this.policies = new Float32Array(capacity * NUM_ACTIONS);
    this.values = new Float32Array(capacity);
  }

  /** Rows added since the last `startIteration`. */
  get newestRows(): number {
    return this.iterationRows.at(-1) ?? 0;
  }

  /** Opens a new iteration's rows, dropping the oldest iteration's once the window is full. */
  startIteration(): void {
    if (this.iterationRows.length === this.window) {
      this.#shiftDown(this.iterationRows.shift() as number);
    }
    this.iterationRows.push(0);
  }

  /** Empties the buffer; keeps the memory. */
  clear(): void {
    this.size = 0;
    this.iterationRows.length = 0;
  }

  /**
   * Adds a position to the newest iteration: the state, the search's policy
   * (`policy[policyOffset ..]`, NUM_ACTIONS numbers) and the value target.
   */
  add(state: Uint8Array, policy: Float32Array, policyOffset: number, value: number): void {
    if (this.iterationRows.length === 0) this.iterationRows.push(0);
    if (this.size === this.capacity) this.#grow(this.capacity * 2);
    const row = this.size++;
    this.iterationRows[this.iterationRows.length - 1] = this.newestRows + 1;
    this.states.set(state, row * STATE_SIZE);
    this.policies.set(policy.subarray(policyOffset, policyOffset + NUM_ACTIONS), row * NUM_ACTIONS);
    this.values[row] = value;
    this.#encodeRow(row);
  }

  /** Adds logged positions with their observations to the newest iteration, as `add` would one by one. */
  addEncoded(positions: EncodedPositions): void {
    const { count, encoded } = positions;
    if (encoded.observations.length !== count * this.obsSize) {
      throw new RangeError(
        `${count} positions came with ${encoded.observations.length} observation floats, not ${count} of ${this.obsSize}`,
      );
    }
    if (this.iterationRows.length === 0) this.iterationRows.push(0);
    let capacity = this.capacity;
    while (this.size + count > capacity) capacity *= 2;
    if (capacity !== this.capacity) this.#grow(capacity);
    const row = this.size;
    this.size += count;
    this.iterationRows[this.iterationRows.length - 1] = this.newestRows + count;
    this.states.set(positions.states, row * STATE_SIZE);
    this.policies.set(positions.policies, row * NUM_ACTIONS);
    this.values.set(positions.values, row);
    this.observations.set(encoded.observations, row * this.obsSize);
    this.masks.set(encoded.masks, row * NUM_ACTIONS);
  }

  /** The rows for a checkpoint (copies). */
  contents(): PositionWindow {
    return {
      iterationRows: [...this.iterationRows],
      states: Float32Array.from(this.states.subarray(0, this.size * STATE_SIZE)),
      policies: this.policies.slice(0, this.size * NUM_ACTIONS),
      values: this.values.slice(0, this.size),
    };
  }

  /** Replaces the rows with a checkpoint's, re-encoding the observations; a mismatch is a RangeError naming it. */
  restore(saved: PositionWindow): void {
    const { iterationRows } = saved;
    if (iterationRows.length > this.window) {
      throw new RangeError(
        `replay window holds ${iterationRows.length} iterations, more than the run's ${this.window}`,
      );
    }
    const rows = iterationRows.reduce((a, b) => a + b, 0);
    for (const [name, got, want] of [
      ['states', saved.states.length, rows * STATE_SIZE],
      ['policies', saved.policies.length, rows * NUM_ACTIONS],
      ['values', saved.values.length, rows],
    ] as const) {
      if (got !== want) {
        throw new RangeError(
          `replay ${name} hold ${got} numbers, expected ${want} for ${rows} rows`,
        );
      }
    }
    const states = new Uint8Array(saved.states.length);
    saved.states.forEach((v, i) => {
      if (!(Number.isInteger(v) && v >= 0 && v <= 255)) {
        throw new RangeError(`replay states hold ${v} at ${i}, not a board count`);
      }
      states[i] = v;
    });
    this.clear();
    for (let row = 0; row < rows; row++) {
      const state = states.subarray(row * STATE_SIZE, (row + 1) * STATE_SIZE);
      this.add(state, saved.policies, row * NUM_ACTIONS, saved.values[row] as number);
    }
    this.iterationRows.splice(0, this.iterationRows.length, ...iterationRows);
  }

  #encodeRow(row: number): void {
    const state = this.states.subarray(row * STATE_SIZE, (row + 1) * STATE_SIZE);
    const mask = this.encoder.encode(state, this.observations, row * this.obsSize);
    maskToBytes(mask, this.masks, row * NUM_ACTIONS);
  }

  #shiftDown(rows: number): void {
    const o = this.obsSize;
    this.states.copyWithin(0, rows * STATE_SIZE, this.size * STATE_SIZE);
    this.observations.copyWithin(0, rows * o, this.size * o);
    this.masks.copyWithin(0, rows * NUM_ACTIONS, this.size * NUM_ACTIONS);
    this.policies.copyWithin(0, rows * NUM_ACTIONS, this.size * NUM_ACTIONS);
    this.values.copyWithin(0, rows, this.size);
    this.size -= rows;
  }

  #grow(capacity: number): void {
    const grow = <T extends Uint8Array | Float32Array>(prev: T, next: T): T => {
      next.set(prev.subarray(0, Math.min(prev.length, next.length)));
      return next;
    };
    this.states = grow(this.states, new Uint8Array(capacity * STATE_SIZE));
    this.observations = grow(this.observations, new Float32Array(capacity * this.obsSize));
    this.masks = grow(this.masks, new Float32Array(capacity * NUM_ACTIONS));
    this.policies = grow(this.policies, new Float32Array(capacity * NUM_ACTIONS));
    this.values = grow(this.values, new Float32Array(capacity));
    this.capacity = capacity;
  }
}
