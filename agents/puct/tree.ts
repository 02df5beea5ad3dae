import { core } from '../../env/index.ts';

const { ACTIONS, STATE_SIZE } = core;

/** 32-bit words a position takes (STATE_SIZE is a multiple of 4). */
export const STATE_WORDS = STATE_SIZE / 4;

/** Nodes a tree holds before it first grows: a search of 169 simulations fits. */
export const INITIAL_CAPACITY = 1024;

/** Bytes a node takes in the tree's arrays (see #grow: state, parent, action, prior, visits, value sum, first child, child count, solved, exact value, pending). */
const NODE_BYTES = STATE_SIZE + 4 + 1 + 4 + 4 + 8 + 4 + 1 + 1 + 8 + 1;

/**
 * Bytes a node takes in a remembering search's evaluations
 * (evaluation-memory.ts: priors, value, the last tree's node).
 */
export const REMEMBERED_NODE_BYTES = ACTIONS * 4 + 8 + 4;

/**
 * The most bytes a search's tree takes after a search of `simulations` (each
 * expands at most one leaf's six children), with the doubling of its
 * storage; `remembering`, as self-play's searches do (PuctOptions
 * `rememberEvaluations`): with the last search's tree, and both trees'
 * evaluations. For memory estimates made before anything is allocated.
 */
export function treeBytes(simulations: number, remembering = true): number {
  let capacity = INITIAL_CAPACITY;
  while (capacity < (simulations + 1) * 6 + 1) capacity *= 2;
  return remembering ? 2 * capacity * (NODE_BYTES + REMEMBERED_NODE_BYTES) : capacity * NODE_BYTES;
}

/**
 * Node `c`'s value for the player who moved into it: exact when proven, else
 * its mean (0 unvisited). PuctTree's, and the WebAssembly core's trees'.
 */
export function meanValue(
  tree: Pick<PuctTree, 'solved' | 'exact' | 'visits' | 'valueSum'>,
  c: number,
): number {
  if (tree.solved[c] === 1) return tree.exact[c] as number;
  const n = tree.visits[c] as number;
  return n > 0 ? (tree.valueSum[c] as number) / n : 0;
}

/**
 * The search tree's storage: one entry per node in parallel typed arrays that
 * grow by doubling and are kept from one search to the next. A node's
 * children are consecutive, from `firstChild` for `childCount` nodes, one per
 * legal action. Values are stored for the player who moved into the node.
 * Fields are public for the search's hot loops; `grow` replaces the arrays,
 * so read them from the tree, never keep one.
 */
export class PuctTree {
  capacity = 0;
  /** Nodes in use (node 0 is the root of a fresh tree). */
  size = 0;
  /** STATE_SIZE bytes a node: its position. */
  states = new Uint8Array(0);
  /** The same bytes as 32-bit words, STATE_WORDS a node: a position copies in four moves. */
  stateWords = new Uint32Array(0);
  /** The parent node (-1 for a root). */
  parent = new Int32Array(0);
  /** The action that leads from the parent here. */
  action = new Int8Array(0);
  prior = new Float32Array(0);
  visits = new Int32Array(0);
  /** Sum of backed-up values for the player who moved into the node. */
  valueSum = new Float64Array(0);
  /** First child (-1 while unexpanded). */
  firstChild = new Int32Array(0);
  /** Number of children (the legal actions) once expanded. */
  childCount = new Uint8Array(0);
  /** 1 when the node's value is exact: `exact`, for the player who moved into it. */
  solved = new Uint8Array(0);
  exact = new Float64Array(0);
  /** 1 while a node waits in the current batch for its evaluation. */
  pending = new Uint8Array(0);

  constructor(capacity = INITIAL_CAPACITY) {
    this.#grow(capacity);
  }

  /** Drops every node. */
  clear(): void {
    this.size = 0;
  }

  /** Adds an unexpanded, unvisited node; returns its index. */
  addNode(parent: number, action: number, prior: number): number {
    if (this.size === this.capacity) this.#grow(this.capacity * 2);
    const node = this.size++;
    this.parent[node] = parent;
    this.action[node] = action;
    this.prior[node] = prior;
    this.firstChild[node] = -1;
    // Unvisited, unexpanded, open, not waiting: a node reused after `clear` starts afresh.
    const { visits, valueSum, childCount, solved, exact, pending } = this;
    visits[node] = valueSum[node] = childCount[node] = 0;
    solved[node] = exact[node] = pending[node] = 0;
    return node;
  }

  /** Whether `node` has children and an open result (solved nodes are not searched below). */
  isExpanded(node: number): boolean {
    return (this.firstChild[node] as number) >= 0 && this.solved[node] === 0;
  }

  /** A child's value for the player who moved into it: exact when proven, else its mean (0 unvisited). */
  meanValue(c: number): number {
    return meanValue(this, c);
  }

  /**
   * The expanded node within two plies of `root` (a child or grandchild)
   * whose position is `state`, or -1 if there is none or the node holding it
   * is unexpanded or solved.
   */
  findNear(root: number, state: Uint8Array): number {
    if (!this.isExpanded(root)) return -1;
    const first = this.firstChild[root] as number;
    const end = first + (this.childCount[root] as number);
    for (let c = first; c < end; c++) {
      if (this.#holds(c, state)) return this.isExpanded(c) ? c : -1;
      if (!this.isExpanded(c)) continue;
      const g0 = this.firstChild[c] as number;
      const g1 = g0 + (this.childCount[c] as number);
      for (let g = g0; g < g1; g++) if (this.#holds(g, state)) return this.isExpanded(g) ? g : -1;
    }
    return -1;
  }

  #holds(node: number, state: Uint8Array): boolean {
    const at = node * STATE_SIZE;
    for (let i = 0; i < STATE_SIZE; i++) if (this.states[at + i] !== state[i]) return false;
    return true;
  }

  #grow(capacity: number): void {
    const copy = <T extends { set(a: ArrayLike<number>): void }>(
      next: T,
      prev: ArrayLike<number>,
    ): T => {
      next.set(prev);
      return next;
    };
    this.states = copy(new Uint8Array(capacity * STATE_SIZE), this.states);
    this.stateWords = new Uint32Array(this.states.buffer);
    this.parent = copy(new Int32Array(capacity), this.parent);
    this.action = copy(new Int8Array(capacity), this.action);
    this.prior = copy(new Float32Array(capacity), this.prior);
    this.visits = copy(new Int32Array(capacity), this.visits);
    this.valueSum = copy(new Float64Array(capacity), this.valueSum);
    this.firstChild = copy(new Int32Array(capacity), this.firstChild);
    this.childCount = copy(new Uint8Array(capacity), this.childCount);
    this.solved = copy(new Uint8Array(capacity), this.solved);
    this.exact = copy(new Float64Array(capacity), this.exact);
    this.pending = copy(new Uint8Array(capacity), this.pending);
    this.capacity = capacity;
  }
}
