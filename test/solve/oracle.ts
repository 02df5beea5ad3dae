import {
  applyAction,
  formatPosition,
  legalActions,
  outcome,
  type Position,
  type Rules,
} from '../../env/index.ts';

/** An exact value from the mover's view (-1, 0, 1), or null where endless play decides it. */
export type OracleValue = -1 | 0 | 1 | null;

interface Node {
  readonly children: number[];
  /** The final result for the mover if the game is over here. */
  readonly end: -1 | 0 | 1 | null;
  lo: number;
  hi: number;
}

/**
 * A second, independent method for the solver's tests: the whole game graph
 * reachable from a position, built with the public API (legalActions,
 * applyAction, outcome), then solved by fixed-point iteration rather than by
 * search. Each node starts at [loss, win]; a round sets
 *   lo = max over children of -hi(child),  hi = max over children of -lo(child)
 * and rounds repeat until nothing changes. `lo` only rises and `hi` only falls,
 * so this ends; at the end `lo` is what the mover can force by ending the game
 * (a line that never ends counts against them) and `hi` what the opponent can
 * hold them to (a line that never ends counts for them). Where the two differ,
 * the value hangs on how endless play is scored, which the rules do not say.
 * Meant for small positions (a few seeds on the board): every state is kept.
 */
export function oracleValues(
  root: Position,
  rules: Rules,
  limit = 400_000,
): Map<string, OracleValue> {
  const index = new Map<string, number>();
  const nodes: Node[] = [];
  const positions: Position[] = [];
  const visit = (pos: Position): number => {
    const key = formatPosition(pos);
    const known = index.get(key);
    if (known !== undefined) return known;
    if (nodes.length >= limit) throw new Error(`more than ${limit} positions reachable`);
    const id = nodes.length;
    index.set(key, id);
    const result = outcome(pos, rules);
    const end =
      result === null ? null : result.winner === null ? 0 : result.winner === pos.toMove ? 1 : -1;
    nodes.push({ children: [], end, lo: end ?? -1, hi: end ?? 1 });
    positions.push(pos);
    return id;
  };
  visit(root);
  for (let id = 0; id < nodes.length; id++) {
    const node = nodes[id] as Node;
    if (node.end !== null) continue;
    const pos = positions[id] as Position;
    for (const a of legalActions(pos, rules)) node.children.push(visit(applyAction(pos, a, rules)));
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const node of nodes) {
      if (node.end !== null) continue;
      let lo = -1;
      let hi = -1;
      for (const c of node.children) {
        const child = nodes[c] as Node;
        lo = Math.max(lo, -child.hi);
        hi = Math.max(hi, -child.lo);
      }
      if (lo !== node.lo || hi !== node.hi) {
        node.lo = lo;
        node.hi = hi;
        changed = true;
      }
    }
  }
  const values = new Map<string, OracleValue>();
  for (const [key, id] of index) {
    const node = nodes[id] as Node;
    values.set(key, node.lo === node.hi ? (node.lo as -1 | 0 | 1) : null);
  }
  return values;
}
