import {
  applyAction,
  initialPosition,
  legalActions,
  outcome,
  type Position,
  Random,
  type Rules,
} from '../../env/index.ts';

/** Positions reached by random play from the start: `count` of them, at random depths. */
export function randomPositions(seed: number, count: number, rules?: Rules): Position[] {
  const rng = Random.fromSeed(seed);
  const out: Position[] = [];
  while (out.length < count) {
    let pos = initialPosition();
    const plies = rng.int(30);
    for (let i = 0; i < plies && outcome(pos, rules) === null; i++) {
      pos = applyAction(pos, rng.pick(legalActions(pos, rules)), rules);
    }
    if (outcome(pos, rules) === null) out.push(pos);
  }
  return out;
}

/** Random play from the start until at most `seeds` remain on the board (null if the game ends first). */
export function endgame(rng: Random, seeds: number, rules?: Rules): Position | null {
  let pos = initialPosition();
  for (;;) {
    if (outcome(pos, rules) !== null) return null;
    if (pos.pits.reduce((a, b) => a + b, 0) <= seeds) return pos;
    pos = applyAction(pos, rng.pick(legalActions(pos, rules)), rules);
  }
}

/**
 * An oracle independent of the search code: plain negamax over the public API,
 * memoised, on win/draw/loss only. Returns +1, 0 or -1 for the player to move,
 * or null if the game can go on beyond `horizon` plies.
 */
export function solveResult(pos: Position, rules: Rules, horizon = 60): number | null {
  const memo = new Map<string, number | null>();
  const solve = (p: Position, left: number): number | null => {
    const end = outcome(p, rules);
    if (end !== null) {
      return end.winner === null ? 0 : end.winner === p.toMove ? 1 : -1;
    }
    if (left === 0) return null;
    const key = `${p.pits.join(',')}/${p.stores.join(',')}/${p.toMove}/${left}`;
    if (memo.has(key)) return memo.get(key) as number | null;
    let best: number | null = -2;
    for (const a of legalActions(p, rules)) {
      const child = solve(applyAction(p, a, rules), left - 1);
      if (child === null) {
        best = null;
        break;
      }
      const mine = child === 0 ? 0 : -child;
      if (mine > (best as number)) best = mine;
      if (best === 1) break;
    }
    memo.set(key, best);
    return best;
  };
  return solve(pos, horizon);
}

/** Exact result (+1/0/-1 for the mover of `pos`) of each legal action, or null if any is unknown. */
export function solveActions(pos: Position, rules: Rules): Map<number, number> | null {
  const results = new Map<number, number>();
  for (const a of legalActions(pos, rules)) {
    const child = solveResult(applyAction(pos, a, rules), rules);
    if (child === null) return null;
    results.set(a, child === 0 ? 0 : -child);
  }
  return results;
}
