import { describe, expect, it } from 'vitest';
import {
  applyAction,
  core,
  initialPosition,
  PositionError,
  type PositionInput,
  position,
  positionFromState,
} from '../../env/index.ts';

const pits = [1, 0, 2, 3, 0, 4, 5, 0, 1, 2, 0, 2]; // 20 seeds
const valid: PositionInput = { pits, stores: [10, 18], toMove: 1 };

function positionError(input: unknown): PositionError {
  try {
    position(input as PositionInput);
  } catch (error) {
    if (error instanceof PositionError) return error;
    throw error;
  }
  throw new Error('expected a PositionError, nothing was thrown');
}

describe('position()', () => {
  it('builds a position exposing pits, stores and toMove', () => {
    const pos = position(valid);
    expect(Array.from(pos.pits)).toEqual(pits);
    expect(Array.from(pos.stores)).toEqual([10, 18]);
    expect(pos.toMove).toBe(1);
  });

  it('accepts typed arrays', () => {
    const pos = position({
      pits: Uint8Array.from(pits),
      stores: new Int32Array([10, 18]),
      toMove: 0,
    });
    expect(Array.from(pos.pits)).toEqual(pits);
  });

  it('copies its input: changing the caller’s arrays later changes nothing', () => {
    const input = { pits: pits.slice(), stores: [10, 18], toMove: 1 };
    const pos = position(input);
    input.pits[0] = 7;
    input.stores[0] = 4;
    expect(Array.from(pos.pits)).toEqual(pits);
    expect(Array.from(pos.stores)).toEqual([10, 18]);
  });

  it('is read-only', () => {
    const pos = position(valid);
    expect(() => {
      (pos.pits as number[])[0] = 9;
    }).toThrow(TypeError);
    expect(() => {
      (pos.stores as unknown as number[])[0] = 9;
    }).toThrow(TypeError);
    expect(pos.pits[0]).toBe(1);
  });

  it.each<[string, Partial<Record<keyof PositionInput, unknown>>, string, RegExp]>([
    ['11 pits', { pits: pits.slice(1) }, 'pits', /expected 12 numbers, got 11/],
    ['13 pits', { pits: [...pits, 0] }, 'pits', /expected 12 numbers, got 13/],
    ['no pits', { pits: undefined }, 'pits', /expected an array of 12 numbers/],
    ['3 stores', { stores: [10, 18, 0] }, 'stores', /expected 2 numbers, got 3/],
    [
      'a negative pit',
      { pits: [-1, 1, ...pits.slice(2)] },
      'pits[0]',
      /non-negative integer, got -1/,
    ],
    ['a fractional pit', { pits: [1, 0, 2, 2.5, 0.5, ...pits.slice(5)] }, 'pits[3]', /got 2.5/],
    ['a NaN pit', { pits: [Number.NaN, ...pits.slice(1)] }, 'pits[0]', /got NaN/],
    ['a string pit', { pits: ['1', ...pits.slice(1)] }, 'pits[0]', /got 1/],
    ['a negative store', { stores: [-2, 30] }, 'stores[0]', /got -2/],
    ['a fractional store', { stores: [10, 17.5] }, 'stores[1]', /got 17.5/],
    ['a total of 47', { stores: [10, 17] }, 'pits', /must total 48, got 47/],
    ['a total of 49', { stores: [11, 18] }, 'pits', /must total 48, got 49/],
    ['toMove 2', { toMove: 2 }, 'toMove', /expected 0 or 1, got 2/],
    ['toMove -1', { toMove: -1 }, 'toMove', /got -1/],
    ['toMove "0"', { toMove: '0' }, 'toMove', /got 0/],
  ])('rejects %s, naming the field', (_name, change, field, message) => {
    const error = positionError({ ...valid, ...change });
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
    expect(error.message).toContain(`invalid ${field}`);
  });

  it('rejects a non-object', () => {
    expect(positionError(null).field).toBe('position');
    expect(positionError('4,4,4').field).toBe('position');
  });
});

describe('initialPosition()', () => {
  it('has four seeds in every pit, empty stores, player 0 to move', () => {
    const start = initialPosition();
    expect(Array.from(start.pits)).toEqual(new Array(12).fill(4));
    expect(Array.from(start.stores)).toEqual([0, 0]);
    expect(start.toMove).toBe(0);
  });
});

describe('Position state buffers', () => {
  it('toState() gives a fresh copy in the documented layout', () => {
    const pos = position(valid);
    const state = pos.toState();
    expect(state).toBeInstanceOf(Uint8Array);
    expect(state.length).toBe(core.STATE_SIZE);
    expect(Array.from(state.subarray(0, 12))).toEqual(pits);
    expect([state[core.STORE_0], state[core.STORE_1], state[core.TO_MOVE]]).toEqual([10, 18, 1]);
    state[0] = 40;
    expect(pos.pits[0]).toBe(1);
    expect(pos.toState()[0]).toBe(1);
  });

  it('positionFromState() round-trips and copies', () => {
    const state = position(valid).toState();
    const pos = positionFromState(state);
    expect(pos.equals(position(valid))).toBe(true);
    state[0] = 0;
    expect(pos.pits[0]).toBe(1);
  });

  it('positionFromState() validates what it is given', () => {
    const state = position(valid).toState();
    state[0] = 2; // 49 seeds
    expect(() => positionFromState(state)).toThrow(PositionError);
    state[0] = 1;
    state[core.TO_MOVE] = 2;
    expect(() => positionFromState(state)).toThrow(/toMove/);
    expect(() => positionFromState(new Uint8Array(3))).toThrow(/state/);
  });

  it('equals() compares the whole position', () => {
    const a = position(valid);
    expect(a.equals(position(valid))).toBe(true);
    expect(a.equals(position({ ...valid, toMove: 0 }))).toBe(false);
    expect(a.equals(position({ ...valid, stores: [18, 10] }))).toBe(false);
    expect(initialPosition().equals(applyAction(initialPosition(), 0))).toBe(false);
  });
});
