import { legalActions, type Position, position, Random, type Rules } from '../../env/index.ts';

/**
 * Random small positions from a seed: `seeds` seeds dropped in random pits,
 * the other 48 - seeds split at random between the stores (neither at 25),
 * a random player to move; only positions with at least `minMoves` legal moves.
 */
export function smallPositions(
  seed: number,
  count: number,
  seeds: readonly number[],
  rules: Rules,
  minMoves = 1,
): Position[] {
  const rng = Random.fromSeed(seed);
  const out: Position[] = [];
  while (out.length < count) {
    const n = rng.pick(seeds);
    const pits = new Array<number>(12).fill(0);
    for (let k = 0; k < n; k++) {
      const pit = rng.int(12);
      pits[pit] = (pits[pit] as number) + 1;
    }
    const inStores = 48 - n;
    const low = Math.max(0, inStores - 24);
    const s0 = low + rng.int(Math.min(24, inStores) - low + 1);
    const pos = position({ pits, stores: [s0, inStores - s0], toMove: rng.int(2) });
    if (legalActions(pos, rules).length >= minMoves) out.push(pos);
  }
  return out;
}
