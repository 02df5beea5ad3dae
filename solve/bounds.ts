/**
 * A pair of proven bounds `lo <= hi` (values -1..1, see value.ts) packed in one
 * small integer, so that the search returns both without allocating.
 */
export function pack(lo: number, hi: number): number {
  return ((lo + 1) << 2) | (hi + 1);
}

export function loOf(packed: number): number {
  return (packed >> 2) - 1;
}

export function hiOf(packed: number): number {
  return (packed & 3) - 1;
}

/** Nothing known: the value lies anywhere from a loss to a win. */
export const OPEN = pack(-1, 1);
