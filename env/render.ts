import type { Player, Position } from './position.ts';

const cell = (n: number): string => String(n).padStart(3, ' ');

/** How to draw the board for whoever looks at it. */
export interface BoardView {
  /**
   * The player whose row is drawn at the bottom, read left to right; the other
   * row is on top, right to left (the board turned round). Default 0.
   */
  readonly bottom?: Player;
  /** The game is over: no player is marked to move. */
  readonly over?: boolean;
}

/**
 * The board as the players see it: by default player 1's row on top, read
 * right to left (pit 11 at the left), player 0's row below, left to right, with
 * each row's action numbers on its outer side and the stores beside the rows.
 */
export function renderBoard(pos: Position, view: BoardView = {}): string {
  const below: Player = view.bottom ?? 0;
  const above: Player = below === 0 ? 1 : 0;
  const over = view.over === true;
  const pitsOf = (p: Player): number[] => [0, 1, 2, 3, 4, 5].map((i) => p * 6 + i);
  const top = pitsOf(above)
    .reverse()
    .map((i) => cell(pos.pits[i] as number));
  const bottom = pitsOf(below).map((i) => cell(pos.pits[i] as number));
  const rule = `       +${'-----+'.repeat(6)}`;
  const mark = (p: number): string => (!over && pos.toMove === p ? '>' : ' ');
  const lines = [
    `          5     4     3     2     1     0     player ${above}'s actions`,
    rule,
    `${mark(above)} P${above}   |${top.map((c) => ` ${c} `).join('|')}|   store ${pos.stores[above]}`,
    rule,
    `${mark(below)} P${below}   |${bottom.map((c) => ` ${c} `).join('|')}|   store ${pos.stores[below]}`,
    rule,
    `          0     1     2     3     4     5     player ${below}'s actions`,
  ];
  if (!over) lines.push(`Player ${pos.toMove} to move.`);
  return lines.join('\n');
}
