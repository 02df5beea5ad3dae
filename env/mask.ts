/**
 * The legal actions of a position as the engine gives them, a 6-bit mask (bit
 * a set: action a is legal), and the other forms code wants them in: one byte
 * an action (the gym's `actionMask`, a network's mask input) or a list.
 */
import { ACTIONS } from './core.ts';

/** Writes 1 for each legal action of `mask` and 0 for the others into `out[offset ..]`; returns `out`. */
export function maskToBytes<T extends { [index: number]: number }>(
  mask: number,
  out: T,
  offset = 0,
): T {
  for (let a = 0; a < ACTIONS; a++) out[offset + a] = (mask >> a) & 1;
  return out;
}

/** The bit mask of the actions whose byte in `bytes[offset ..]` is not 0. */
export function bytesToMask(bytes: ArrayLike<number>, offset = 0): number {
  let mask = 0;
  for (let a = 0; a < ACTIONS; a++) if (bytes[offset + a]) mask |= 1 << a;
  return mask;
}

/** The legal actions of `mask`, ascending. */
export function maskActions(mask: number): number[] {
  const actions: number[] = [];
  for (let a = 0; a < ACTIONS; a++) if (mask & (1 << a)) actions.push(a);
  return actions;
}
