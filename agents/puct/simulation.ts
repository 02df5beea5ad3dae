/**
 * One simulation's walk through the tree: down by the PUCT rule, up with the
 * leaf's value (negated at each ply) and with any result the leaf proves.
 * While a batch of leaves waits for its evaluations, each selected path
 * carries a virtual loss, so that the batch's selections spread over the tree.
 */
import type { PuctTree } from './tree.ts';

/** Nodes of a finished game are exact; +1 is the best any value can be. */
export const WIN_VALUE = 1;

/**
 * The child maximising Q + c P sqrt(N) / (1 + n), Q from the mover's side at
 * `node`: exact when the child is proven, and for an unvisited child the
 * parent's mean value (first-play urgency).
 */
export function selectChild(tree: PuctTree, node: number, exploration: number): number {
  const { visits, valueSum, solved, exact, prior } = tree;
  const parentVisits = visits[node] as number;
  const parentQ = -(valueSum[node] as number) / parentVisits;
  const scale = exploration * Math.sqrt(parentVisits);
  const first = tree.firstChild[node] as number;
  const end = first + (tree.childCount[node] as number);
  let best = first;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (let c = first; c < end; c++) {
    const n = visits[c] as number;
    const q =
      solved[c] === 1 ? (exact[c] as number) : n === 0 ? parentQ : (valueSum[c] as number) / n;
    const score = q + (scale * (prior[c] as number)) / (1 + n);
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return best;
}

/** Counts `amount` pending visits of `node` as losses for the player who moved into it. */
export function addVirtualLoss(tree: PuctTree, node: number, amount: number): void {
  tree.visits[node] = (tree.visits[node] as number) + amount;
  tree.valueSum[node] = (tree.valueSum[node] as number) - amount;
}

/** Takes the virtual losses of the path from `leaf` to the root back. */
export function removeVirtualLoss(tree: PuctTree, leaf: number): void {
  for (let node = leaf; node >= 0; node = tree.parent[node] as number) {
    addVirtualLoss(tree, node, -1);
  }
}

/**
 * Adds `leafValue` (for the player who moved into `leaf`) to the path,
 * negating at each ply, and solves the parents whose result a new exact value
 * settles: a node is won once one child wins for its mover, and decided once
 * all its children are.
 */
export function backUp(tree: PuctTree, leaf: number, leafValue: number): void {
  const { visits, valueSum, parent, solved } = tree;
  let value = leafValue;
  let solving = solved[leaf] === 1;
  for (let node = leaf; node >= 0; node = parent[node] as number) {
    visits[node] = (visits[node] as number) + 1;
    valueSum[node] = (valueSum[node] as number) + value;
    value = -value;
    const up = parent[node] as number;
    if (solving && up >= 0 && solved[up] === 0) solving = trySolve(tree, up);
    else solving = false;
  }
}

/** Marks `node` solved if its children settle its result; returns whether it did. */
function trySolve(tree: PuctTree, node: number): boolean {
  const { solved, exact } = tree;
  const first = tree.firstChild[node] as number;
  const end = first + (tree.childCount[node] as number);
  let best = Number.NEGATIVE_INFINITY;
  let allSolved = true;
  for (let c = first; c < end; c++) {
    if (solved[c] === 0) {
      allSolved = false;
      continue;
    }
    const value = exact[c] as number;
    if (value > best) best = value;
  }
  if (best !== WIN_VALUE && !allSolved) return false;
  solved[node] = 1;
  exact[node] = -best;
  return true;
}
