import type { ObservationEncoder } from '../../env/gym/observation.ts';
import { core, maskToBytes } from '../../env/index.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';

const { STATE_SIZE } = core;

/** Where self-play puts the positions of finished games (ReplayBuffer, PositionLog). */
export interface PositionSink {
  /** A position, the search's policy there (`policy[policyOffset ..]`, NUM_ACTIONS numbers) and the value target. */
  add(state: Uint8Array, policy: Float32Array, policyOffset: number, value: number): void;
  /** Logged positions whose observations were encoded already (by the run's encoder), all at once. */
  addEncoded?(positions: EncodedPositions): void;
}

/** The plain arrays of a PositionLog, as they cross between threads. */
export interface LoggedPositions {
  readonly count: number;
  readonly states: Uint8Array;
  readonly policies: Float32Array;
  readonly values: Float32Array;
  /**
   * The states' observations and legal masks (NUM_ACTIONS floats a row),
   * where the shard encoded them: on a worker thread, beside the other
   * shards, rather than on the main thread while the workers wait (a fortieth
   * of an iteration of `npm start`).
   */
  readonly encoded?: { readonly observations: Float32Array; readonly masks: Float32Array };
}

/** Logged positions with their observations. */
export type EncodedPositions = LoggedPositions & Required<Pick<LoggedPositions, 'encoded'>>;

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

  /** The logged positions (trimmed copies), with their observations and masks when given the `encoder`. */
  positions(encoder?: ObservationEncoder): LoggedPositions {
    const count = this.#count;
    const states = this.#states.slice(0, count * STATE_SIZE);
    const logged = {
      count,
      states,
      policies: this.#policies.slice(0, count * NUM_ACTIONS),
      values: this.#values.slice(0, count),
    };
    if (encoder === undefined) return logged;
    const observations = new Float32Array(count * encoder.size);
    const masks = new Float32Array(count * NUM_ACTIONS);
    for (let row = 0; row < count; row++) {
      const state = states.subarray(row * STATE_SIZE, (row + 1) * STATE_SIZE);
      maskToBytes(
        encoder.encode(state, observations, row * encoder.size),
        masks,
        row * NUM_ACTIONS,
      );
    }
    return { ...logged, encoded: { observations, masks } };
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
  const { encoded } = positions;
  if (encoded !== undefined && sink.addEncoded !== undefined) {
    sink.addEncoded({ ...positions, encoded });
    return;
  }
  for (let row = 0; row < positions.count; row++) {
    sink.add(
      positions.states.subarray(row * STATE_SIZE, (row + 1) * STATE_SIZE),
      positions.policies,
      row * NUM_ACTIONS,
      positions.values[row] as number,
    );
  }
}
