import { core } from '../../env/index.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';

const { STATE_SIZE } = core;

/** Where self-play puts the positions of finished games (ReplayBuffer, PositionLog). */
export interface PositionSink {
  /** A position, the search's policy there (`policy[policyOffset ..]`, NUM_ACTIONS numbers) and the value target. */
  add(state: Uint8Array, policy: Float32Array, policyOffset: number, value: number): void;
}

/** The plain arrays of a PositionLog, as they cross between threads. */
export interface LoggedPositions {
  readonly count: number;
  readonly states: Uint8Array;
  readonly policies: Float32Array;
  readonly values: Float32Array;
}

/**
 * Positions as a self-play worker thread produces them: states, not their
 * observations, which the main thread's buffer encodes (smaller to send, and
 * the encoding stays in one place).
 */
export class PositionLog implements PositionSink {
  #count = 0;
  #states: Uint8Array;
  #policies: Float32Array;
  #values: Float32Array;

  constructor(capacity = 1024) {
    this.#states = new Uint8Array(capacity * STATE_SIZE);
    this.#policies = new Float32Array(capacity * NUM_ACTIONS);
    this.#values = new Float32Array(capacity);
  }

  add(state: Uint8Array, policy: Float32Array, policyOffset: number, value: number): void {
    if (this.#count === this.#values.length) this.#grow(this.#count * 2);
    const row = this.#count++;
    this.#states.set(state.subarray(0, STATE_SIZE), row * STATE_SIZE);
    this.#policies.set(
      policy.subarray(policyOffset, policyOffset + NUM_ACTIONS),
      row * NUM_ACTIONS,
    );
    this.#values[row] = value;
  }

  /** The logged positions (trimmed copies). */
  positions(): LoggedPositions {
    return {
      count: this.#count,
      states: this.#states.slice(0, this.#count * STATE_SIZE),
      policies: this.#policies.slice(0, this.#count * NUM_ACTIONS),
      values: this.#values.slice(0, this.#count),
    };
  }

  #grow(capacity: number): void {
    const states = new Uint8Array(capacity * STATE_SIZE);
    states.set(this.#states);
    const policies = new Float32Array(capacity * NUM_ACTIONS);
    policies.set(this.#policies);
    const values = new Float32Array(capacity);
    values.set(this.#values);
    this.#states = states;
    this.#policies = policies;
    this.#values = values;
  }
}

/** Adds logged positions to a sink, in their order. */
export function addPositions(positions: LoggedPositions, sink: PositionSink): void {
  for (let row = 0; row < positions.count; row++) {
    sink.add(
      positions.states.subarray(row * STATE_SIZE, (row + 1) * STATE_SIZE),
      positions.policies,
      row * NUM_ACTIONS,
      positions.values[row] as number,
    );
  }
}
