import { PositionError } from './errors.ts';
import { type Position, position } from './position.ts';

/**
 * Position notation, like FEN in chess, shell-safe and without spaces:
 *
 *   `4,4,4,4,4,4/4,4,4,4,4,4/0-0/0`
 *
 * player 0's pits 0..5 / player 1's pits 6..11 (both in sowing order) /
 * store 0 - store 1 / the player to move.
 */
export const START_NOTATION = '4,4,4,4,4,4/4,4,4,4,4,4/0-0/0';

export function formatPosition(pos: Position): string {
  return `${pos.pits.slice(0, 6).join(',')}/${pos.pits.slice(6).join(',')}/${pos.stores[0]}-${pos.stores[1]}/${pos.toMove}`;
}

function parseCount(field: string, text: string): number {
  if (!/^\d+$/.test(text))
    throw new PositionError(field, `'${text}' is not a non-negative integer`);
  return Number(text);
}

function parseRow(field: string, text: string): number[] {
  const parts = text.split(',');
  if (parts.length !== 6) {
    throw new PositionError(
      field,
      `expected 6 comma-separated counts, got ${parts.length} in '${text}'`,
    );
  }
  return parts.map((p, i) => parseCount(`${field}[${i}]`, p.trim()));
}

/** Parses the notation; errors name the part that is wrong. */
export function parsePosition(text: string): Position {
  if (typeof text !== 'string') throw new PositionError('notation', 'expected a string');
  const parts = text.trim().split('/');
  if (parts.length !== 4) {
    throw new PositionError(
      'notation',
      `expected 'row0/row1/store0-store1/toMove' (e.g. ${START_NOTATION}), got '${text}'`,
    );
  }
  const [row0, row1, stores, toMove] = parts as [string, string, string, string];
  const storeParts = stores.split('-');
  if (storeParts.length !== 2) {
    throw new PositionError('stores', `expected 'store0-store1', got '${stores}'`);
  }
  const pits0 = parseRow('pits 0..5', row0);
  const pits1 = parseRow('pits 6..11', row1);
  const toMoveText = toMove.trim();
  if (toMoveText !== '0' && toMoveText !== '1') {
    throw new PositionError('toMove', `expected 0 or 1, got '${toMoveText}'`);
  }
  return position({
    pits: [...pits0, ...pits1],
    stores: storeParts.map((p, i) => parseCount(`stores[${i}]`, p.trim())),
    toMove: Number(toMoveText),
  });
}
