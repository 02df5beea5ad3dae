import { PITS, STATE_SIZE, STORE_0, STORE_1, setInitial, TO_MOVE, TOTAL_SEEDS } from './core.ts';
import { PositionError } from './errors.ts';

export type Player = 0 | 1;

export interface PositionInput {
  readonly pits: ArrayLike<number>;
  readonly stores: ArrayLike<number>;
  readonly toMove: number;
}

/**
 * An immutable, validated game position. `pits` are in sowing order (0..5 player
 * 0's row, 6..11 player 1's), `stores` are [player 0, player 1].
 */
export class Position {
  readonly pits: readonly number[];
  readonly stores: readonly [number, number];
  readonly toMove: Player;
  readonly #state: Uint8Array;

  /** Use `position()`, `initialPosition()` or `positionFromState()`. */
  private constructor(state: Uint8Array) {
    this.#state = state;
    this.pits = Object.freeze(Array.from(state.subarray(0, PITS)));
    this.stores = Object.freeze([state[STORE_0] as number, state[STORE_1] as number]) as readonly [
      number,
      number,
    ];
    this.toMove = state[TO_MOVE] as Player;
  }

  /** @internal Trusted construction from a state buffer the caller hands over. */
  static adopt(state: Uint8Array): Position {
    return new Position(state);
  }

  /** A fresh copy of the fast-path state buffer (see core.ts). */
  toState(): Uint8Array {
    return this.#state.slice();
  }

  /** @internal Read-only access to the state buffer for the engine's own wrappers. */
  get stateView(): Uint8Array {
    return this.#state;
  }

  equals(other: Position): boolean {
    for (let i = 0; i < STATE_SIZE; i++) if (this.#state[i] !== other.#state[i]) return false;
    return true;
  }
}

function checkCounts(field: string, values: ArrayLike<number>, length: number): number {
  if (values === null || typeof values !== 'object' || typeof values.length !== 'number') {
    throw new PositionError(field, `expected an array of ${length} numbers`);
  }
  if (values.length !== length) {
    throw new PositionError(field, `expected ${length} numbers, got ${values.length}`);
  }
  let sum = 0;
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      throw new PositionError(
        `${field}[${i}]`,
        `expected a non-negative integer, got ${String(v)}`,
      );
    }
    sum += v;
  }
  return sum;
}

/** Builds a validated position; throws a PositionError naming the bad field. */
export function position(input: PositionInput): Position {
  if (input === null || typeof input !== 'object') {
    throw new PositionError('position', 'expected an object with pits, stores and toMove');
  }
  const onBoard = checkCounts('pits', input.pits, PITS);
  const inStores = checkCounts('stores', input.stores, 2);
  if (onBoard + inStores !== TOTAL_SEEDS) {
    throw new PositionError(
      'pits',
      `seeds on the board (${onBoard}) and in the stores (${inStores}) must total ${TOTAL_SEEDS}, got ${onBoard + inStores}`,
    );
  }
  if (input.toMove !== 0 && input.toMove !== 1) {
    throw new PositionError('toMove', `expected 0 or 1, got ${String(input.toMove)}`);
  }
  const state = new Uint8Array(STATE_SIZE);
  for (let i = 0; i < PITS; i++) state[i] = input.pits[i] as number;
  state[STORE_0] = input.stores[0] as number;
  state[STORE_1] = input.stores[1] as number;
  state[TO_MOVE] = input.toMove;
  return Position.adopt(state);
}

const INITIAL = Position.adopt(setInitial(new Uint8Array(STATE_SIZE)));

/** The start: four seeds in every pit, empty stores, player 0 to move. */
export function initialPosition(): Position {
  return INITIAL;
}

/** A position from a fast-path state buffer (copied and validated). */
export function positionFromState(state: Uint8Array): Position {
  if (state.length < STATE_SIZE - 1) {
    throw new PositionError('state', `expected ${STATE_SIZE} bytes, got ${state.length}`);
  }
  return position({
    pits: state.subarray(0, PITS),
    stores: [state[STORE_0] as number, state[STORE_1] as number],
    toMove: state[TO_MOVE] as number,
  });
}
