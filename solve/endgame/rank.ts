/**
 * Boards as numbers: the boards of n seeds in 12 pits, in lexicographic order
 * of their pit counts, numbered 0 .. C(n + 11, 11) - 1 (the combinatorial
 * number system for multisets). Boards of up to MAX_RANKED_SEEDS seeds.
 */
export const PITS = 12;
export const MAX_RANKED_SEEDS = 24;

/** ways[r * PITS + p]: boards of r seeds in p pits, C(r + p - 1, p - 1) (1 for p = 0 and r = 0). */
const ways = new Float64Array((MAX_RANKED_SEEDS + 1) * (PITS + 1));
for (let r = 0; r <= MAX_RANKED_SEEDS; r++) {
  for (let p = 0; p <= PITS; p++) {
    ways[r * (PITS + 1) + p] =
      p === 0 ? (r === 0 ? 1 : 0) : r === 0 ? 1 : waysOf(r, p - 1) + waysOf(r - 1, p);
  }
}

function waysOf(r: number, p: number): number {
  return ways[r * (PITS + 1) + p] as number;
}

/** How many boards hold exactly `n` seeds. */
export function boardsOf(n: number): number {
  return waysOf(n, PITS);
}

/**
 * below[(r * (PITS + 1) + p) * (MAX + 1) + c]: boards of r seeds in p + 1 pits
 * whose first pit holds fewer than c seeds (what ranking skips at a pit).
 */
const below = new Float64Array((MAX_RANKED_SEEDS + 1) * (PITS + 1) * (MAX_RANKED_SEEDS + 1));
for (let r = 0; r <= MAX_RANKED_SEEDS; r++) {
  for (let p = 0; p < PITS; p++) {
    let sum = 0;
    for (let c = 0; c <= MAX_RANKED_SEEDS; c++) {
      below[(r * (PITS + 1) + p) * (MAX_RANKED_SEEDS + 1) + c] = sum;
      if (c <= r) sum += waysOf(r - c, p);
    }
  }
}

/**
 * The rank of the board `pits[at .. at + 11]` (read in the order `order`, a
 * permutation of 0..11 added to `at`) among the boards of its seed count `n`.
 */
export function rankBoard(pits: Uint8Array, at: number, order: Uint8Array, n: number): number {
  let rank = 0;
  let left = n;
  for (let i = 0; i < PITS - 1; i++) {
    const c = pits[at + (order[i] as number)] as number;
    rank += below[(left * (PITS + 1) + (PITS - 1 - i)) * (MAX_RANKED_SEEDS + 1) + c] as number;
    left -= c;
  }
  return rank;
}

/** Writes board number `rank` of `n` seeds into `pits[0..11]` (the inverse of rankBoard, in pit order). */
export function unrankBoard(rank: number, n: number, pits: Uint8Array): void {
  let left = n;
  let rest = rank;
  for (let i = 0; i < PITS - 1; i++) {
    const p = PITS - 1 - i;
    let c = 0;
    while (c < left && rest >= waysOf(left - c, p)) {
      rest -= waysOf(left - c, p);
      c++;
    }
    pits[i] = c;
    left -= c;
  }
  pits[PITS - 1] = left;
}

/** Pit order for the mover's view: player 0's row first (as stored) or player 1's. */
export const MOVER_0_ORDER = Uint8Array.from({ length: PITS }, (_, i) => i);
export const MOVER_1_ORDER = Uint8Array.from({ length: PITS }, (_, i) => (i + 6) % PITS);
