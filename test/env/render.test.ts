import { describe, expect, it } from 'vitest';
import { initialPosition, parsePosition, renderBoard } from '../../env/index.ts';

describe('renderBoard', () => {
  it('draws player 1 on top, right to left, and player 0 below, left to right', () => {
    // The pits of each row hold different counts, so each cell's place is checked.
    const pos = parsePosition('0,1,2,3,4,5/6,7,8,0,10,1/1-0/1');
    expect(renderBoard(pos)).toBe(
      [
        "          5     4     3     2     1     0     player 1's actions",
        '       +-----+-----+-----+-----+-----+-----+',
        '> P1   |   1 |  10 |   0 |   8 |   7 |   6 |   store 0',
        '       +-----+-----+-----+-----+-----+-----+',
        '  P0   |   0 |   1 |   2 |   3 |   4 |   5 |   store 1',
        '       +-----+-----+-----+-----+-----+-----+',
        "          0     1     2     3     4     5     player 0's actions",
        'Player 1 to move.',
      ].join('\n'),
    );
  });

  it('marks player 0 at the start', () => {
    const lines = renderBoard(initialPosition()).split('\n');
    expect(lines[2]).toMatch(/^ {2}P1 /);
    expect(lines[4]).toMatch(/^> P0 /);
    expect(lines.at(-1)).toBe('Player 0 to move.');
  });

  it('keeps the columns aligned for two-digit counts', () => {
    const lines = renderBoard(parsePosition('0,0,0,0,0,0/0,0,0,0,0,48/0-0/0')).split('\n');
    expect(lines[2]).toContain('|  48 |   0 |');
    expect(lines[2]?.lastIndexOf('|')).toBe(lines[4]?.lastIndexOf('|'));
    expect(lines[2]?.indexOf('|')).toBe(lines[4]?.indexOf('|'));
  });

  it("turns the board round for player 1: North's row at the bottom, left to right", () => {
    const pos = parsePosition('0,1,2,3,4,5/6,7,8,0,10,1/1-0/1');
    expect(renderBoard(pos, { bottom: 1 })).toBe(
      [
        "          5     4     3     2     1     0     player 0's actions",
        '       +-----+-----+-----+-----+-----+-----+',
        '  P0   |   5 |   4 |   3 |   2 |   1 |   0 |   store 1',
        '       +-----+-----+-----+-----+-----+-----+',
        '> P1   |   6 |   7 |   8 |   0 |  10 |   1 |   store 0',
        '       +-----+-----+-----+-----+-----+-----+',
        "          0     1     2     3     4     5     player 1's actions",
        'Player 1 to move.',
      ].join('\n'),
    );
  });

  it('marks no player to move when the game is over', () => {
    const text = renderBoard(parsePosition('0,0,0,0,0,0/0,0,0,0,0,0/24-24/0'), { over: true });
    expect(text).not.toContain('to move');
    expect(text).not.toContain('>');
    expect(text.split('\n')).toHaveLength(7);
  });
});
