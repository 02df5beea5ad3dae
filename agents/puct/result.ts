import { core } from '../../env/index.ts';
import { WIN_VALUE } from './simulation.ts';
import type { PuctTree } from './tree.ts';

const { ACTIONS, POPCOUNT } = core;

export interface PuctResult {
  /** Visits of each root action (0 for illegal ones). */
  readonly visits: Float64Array;
  /** Visits normalised: sums to 1 over the legal actions, exactly 0 elsewhere (training targets). */
  readonly policy: Float64Array;
  /** Mean value of each root action for the player to move (0 if never visited). */
  readonly q: Float64Array;
  /** Legal root actions as a bit mask. */
  readonly legalMask: number;
  /** The root's value for the player to move: exact if `solved`, else the mean of its simulations. */
  readonly value: number;
  /** The evaluator's value of the root for the player to move (its mean value if the root was reused). */
  readonly rawValue: number;
  /** The priors of the root's actions as the search used them (0 for illegal ones). */
  readonly priors: Float64Array;
  /** True when the game's result from the root is proven (the search then stops early). */
  readonly solved: boolean;
  /** The actions the search rates best (see `bestActions`); the agent picks among them. */
  readonly bestActions: readonly number[];
  readonly simulations: number;
  /** Positions handed to the evaluator. */
  readonly evaluations: number;
  readonly elapsedMs: number;
}

/** What the search counted besides the tree. */
export interface SearchCounts {
  readonly simulations: number;
  readonly evaluations: number;
  readonly rawValue: number;
  readonly elapsedMs: number;
}

/**
 * What a result reads of a tree: PuctTree's, or the WebAssembly search core's
 * (agents/puct/core/).
 */
export type ResultTree = Pick<
  PuctTree,
  | 'firstChild'
  | 'childCount'
  | 'action'
  | 'prior'
  | 'visits'
  | 'valueSum'
  | 'solved'
  | 'exact'
  | 'meanValue'
>;

/** The result of a search from the expanded `root` of `tree` (arrays are fresh copies). */
export function buildResult(tree: ResultTree, root: number, counts: SearchCounts): PuctResult {
  const visits = new Float64Array(ACTIONS);
  const policy = new Float64Array(ACTIONS);
  const q = new Float64Array(ACTIONS);
  const priors = new Float64Array(ACTIONS);
  const first = tree.firstChild[root] as number;
  const end = first + (tree.childCount[root] as number);
  const solved = tree.solved[root] === 1;
  let legalMask = 0;
  let total = 0;
  for (let c = first; c < end; c++) {
    const a = tree.action[c] as number;
    legalMask |= 1 << a;
    const n = tree.visits[c] as number;
    visits[a] = n;
    total += n;
    q[a] = tree.meanValue(c);
    priors[a] = tree.prior[c] as number;
  }
  for (let a = 0; a < ACTIONS; a++) policy[a] = total > 0 ? (visits[a] as number) / total : 0;
  if (total === 0) {
    // A single simulation only expanded the root: fall back to uniform over the legal actions.
    const share = 1 / (POPCOUNT[legalMask] as number);
    for (let a = 0; a < ACTIONS; a++) policy[a] = legalMask & (1 << a) ? share : 0;
  }
  const value = solved
    ? -(tree.exact[root] as number)
    : -(tree.valueSum[root] as number) / (tree.visits[root] as number);
  return {
    visits,
    policy,
    q,
    legalMask,
    value,
    rawValue: counts.rawValue,
    priors,
    solved,
    bestActions: bestActions(tree, root),
    simulations: counts.simulations,
    evaluations: counts.evaluations,
    elapsedMs: counts.elapsedMs,
  };
}

/**
 * The root actions the search rates best. A solved root: the moves reaching
 * its best exact value, the most visited among them. Otherwise the most
 * visited moves, never a proven loss while some move is not one. Ties in
 * visits go to the higher mean value; what is still tied is returned whole.
 */
export function bestActions(tree: ResultTree, root: number): number[] {
  const { solved, exact } = tree;
  const first = tree.firstChild[root] as number;
  const end = first + (tree.childCount[root] as number);
  if (solved[root] === 1) {
    let bestExact = Number.NEGATIVE_INFINITY;
    for (let c = first; c < end; c++) {
      if (solved[c] === 1 && (exact[c] as number) > bestExact) bestExact = exact[c] as number;
    }
    return mostVisited(tree, first, end, REACHING, bestExact);
  }
  let anyNotLost = false;
  for (let c = first; c < end; c++) if (!isLost(tree, c)) anyNotLost = true;
  return mostVisited(tree, first, end, anyNotLost ? NOT_LOST : ANY, 0);
}

// Which children mostVisited considers (constants, not closures: a closure a
// search is garbage, and a function made per call under the development
// loader's name-keeping costs more still).
/** Every child. */
const ANY = 0;
/** The children not proven lost for the mover. */
const NOT_LOST = 1;
/** The proven children of exact value `exactValue`. */
const REACHING = 2;

function isLost(tree: ResultTree, c: number): boolean {
  return tree.solved[c] === 1 && tree.exact[c] === -WIN_VALUE;
}

/** Actions of the most visited children of `which` kind, ties broken by higher mean value. */
function mostVisited(
  tree: ResultTree,
  first: number,
  end: number,
  which: number,
  exactValue: number,
): number[] {
  const out: number[] = [];
  let bestVisits = -1;
  let bestQ = Number.NEGATIVE_INFINITY;
  for (let c = first; c < end; c++) {
    if (which === NOT_LOST && isLost(tree, c)) continue;
    if (which === REACHING && !(tree.solved[c] === 1 && tree.exact[c] === exactValue)) continue;
    const n = tree.visits[c] as number;
    const q = tree.meanValue(c);
    if (n > bestVisits || (n === bestVisits && q > bestQ)) {
      bestVisits = n;
      bestQ = q;
      out.length = 0;
    }
    if (n === bestVisits && q === bestQ) out.push(tree.action[c] as number);
  }
  return out;
}
