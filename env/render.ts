import type { Position } from './position.ts';

const cell = (n: number): string => String(n).padStart(3, ' ');

/**
 * The board as the players see it: player 1's row on top, read right to left
 * (pit 11 at the left), player 0's row below, left to right, with each row's
 * action numbers on its outer side and the stores beside the rows.
 */
export function renderBoard(pos: Position): string {
  const top = [11, 10, 9, 8, 7, 6].map((i) => cell(pos.pits[i] as number));
  const bottom = [0, 1, 2, 3, 4, 5].map((i) => cell(pos.pits[i] as number));
  const rule = `       +${'-----+'.repeat(6)}`;
  const mark = (p: number): string => (pos.toMove === p ? '>' : ' ');
  return [
    `          5     4     3     2     1     0     player 1's actions`,
    rule,
    `${mark(1)} P1   |${top.map((c) => ` ${c} `).join('|')}|   store ${pos.stores[1]}`,
    rule,
    `${mark(0)} P0   |${bottom.map((c) => ` ${c} `).join('|')}|   store ${pos.stores[0]}`,
    rule,
    `          0     1     2     3     4     5     player 0's actions`,
    `Player ${pos.toMove} to move.`,
  ].join('\n');
}
