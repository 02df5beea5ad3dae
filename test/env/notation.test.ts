import { describe, expect, it } from 'vitest';
import {
  formatPosition,
  initialPosition,
  PositionError,
  parsePosition,
  position,
  START_NOTATION,
} from '../../env/index.ts';

function parseError(text: string): PositionError {
  try {
    parsePosition(text);
  } catch (error) {
    if (error instanceof PositionError) return error;
    throw error;
  }
  throw new Error(`expected '${text}' to be rejected`);
}

describe('position notation', () => {
  it('writes the start as row0/row1/stores/toMove', () => {
    expect(START_NOTATION).toBe('4,4,4,4,4,4/4,4,4,4,4,4/0-0/0');
    expect(formatPosition(initialPosition())).toBe(START_NOTATION);
    expect(parsePosition(START_NOTATION).equals(initialPosition())).toBe(true);
  });

  it('lists both rows in sowing order (pits 0..5, then 6..11)', () => {
    const pos = position({
      pits: [1, 0, 2, 3, 0, 4, 5, 0, 1, 12, 0, 2],
      stores: [0, 18],
      toMove: 1,
    });
    expect(formatPosition(pos)).toBe('1,0,2,3,0,4/5,0,1,12,0,2/0-18/1');
    const back = parsePosition('1,0,2,3,0,4/5,0,1,12,0,2/0-18/1');
    expect(Array.from(back.pits)).toEqual([1, 0, 2, 3, 0, 4, 5, 0, 1, 12, 0, 2]);
    expect(Array.from(back.stores)).toEqual([0, 18]);
    expect(back.toMove).toBe(1);
  });

  it('accepts surrounding and inner blanks', () => {
    expect(parsePosition(`  ${START_NOTATION}\n`).equals(initialPosition())).toBe(true);
    expect(parsePosition('4, 4,4,4,4,4/4,4,4,4,4,4/0 - 0/ 0').equals(initialPosition())).toBe(true);
  });

  it.each<[string, string, string]>([
    ['too few parts', '4,4,4,4,4,4/4,4,4,4,4,4/0-0', 'notation'],
    ['too many parts', `${START_NOTATION}/0`, 'notation'],
    ['empty text', '', 'notation'],
    ['five pits in a row', '4,4,4,4,4/4,4,4,4,4,4,4/0-0/0', 'pits 0..5'],
    ['seven pits in row 1', '4,4,4,4,4,4/4,4,4,4,4,4,0/0-0/0', 'pits 6..11'],
    ['a negative count', '4,4,4,4,4,4/-4,4,4,4,4,4/8-0/0', 'pits 6..11[0]'],
    ['a fractional count', '4,4,4.5,4,4,4/4,4,4,4,4,4/0-0/0', 'pits 0..5[2]'],
    ['a word', '4,4,x,4,4,4/4,4,4,4,4,4/0-0/0', 'pits 0..5[2]'],
    ['an empty count', '4,,4,4,4,4/4,4,4,4,4,4/4-0/0', 'pits 0..5[1]'],
    ['one store', '4,4,4,4,4,4/4,4,4,4,4,4/0/0', 'stores'],
    ['a bad store', '4,4,4,4,4,4/4,4,4,4,4,4/0-a/0', 'stores[1]'],
    ['toMove 2', '4,4,4,4,4,4/4,4,4,4,4,4/0-0/2', 'toMove'],
    ['toMove "south"', '4,4,4,4,4,4/4,4,4,4,4,4/0-0/south', 'toMove'],
    ['49 seeds', '4,4,4,4,4,4/4,4,4,4,4,4/1-0/0', 'pits'],
  ])('rejects %s, naming the part', (_name, text, field) => {
    const error = parseError(text);
    expect(error.field).toBe(field);
    expect(error.message).toContain(`invalid ${field}`);
  });
});
