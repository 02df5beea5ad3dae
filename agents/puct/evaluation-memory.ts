/**
 * The evaluations of a search's previous tree, recalled by the next search
 * wherever it reaches a position the previous one evaluated. Self-play
 * searches every move of a game afresh (no tree reuse: visits would carry
 * over), yet its next root is a child of the last, whose subtree the last
 * search expanded along its most visited move: several of the next search's
 * leaves were evaluated one move before. A network gives a position the
 * same priors and value whichever batch it runs in, so recalling them
 * changes nothing but the work: the search is the same, float for float.
 *
 * The two trees hold the same position at the same path: a node's children
 * are its legal actions in order, so the child of a recalled node for its
 * k-th legal action is the k-th child of the node it recalls.
 */
import { core } from '../../env/index.ts';
import { INITIAL_CAPACITY, PuctTree, STATE_WORDS } from './tree.ts';

const { ACTIONS, STATE_SIZE } = core;

/**
 * One tree's evaluations (REMEMBERED_NODE_BYTES a node): per node, its
 * priors (ACTIONS floats) and value, and the previous tree's node holding
 * its position. Room for as many nodes as its tree.
 */
class Evaluations {
  priors = new Float32Array(0);
  values = new Float64Array(0);
  /** The previous tree's node at the same position (-1: none known). */
  recall = new Int32Array(0);

  constructor() {
    this.reserve(INITIAL_CAPACITY);
  }

  /** Makes room for a tree of `capacity` nodes, keeping what is there. */
  reserve(capacity: number): void {
    if (capacity <= this.values.length) return;
    const priors = new Float32Array(capacity * ACTIONS);
    priors.set(this.priors);
    const values = new Float64Array(capacity);
    values.set(this.values);
    const recall = new Int32Array(capacity);
    recall.set(this.recall);
    this.priors = priors;
    this.values = values;
    this.recall = recall;
  }
}

export class EvaluationMemory {
  /** The previous search's tree (its nodes' evaluations in `#before`). */
  #previous = new PuctTree();
  /** The previous search's root in `#previous`. */
  #previousRoot = -1;
  #now = new Evaluations();
  #before = new Evaluations();

  /** Forgets the previous search (a new game). */
  forget(): void {
    this.#previous.clear();
  }

  /**
   * A new search of `state` after the one in `tree` from `root`: `tree`
   * becomes the previous tree, and the returned (empty) tree is the new
   * search's. Its root, once added, is linked by `linkRoot`.
   */
  begin(tree: PuctTree, root: number): PuctTree {
    const fresh = this.#previous;
    this.#previous = tree;
    this.#previousRoot = root;
    const now = this.#before;
    this.#before = this.#now;
    this.#now = now;
    fresh.clear();
    return fresh;
  }

  /** Links the root of the new `tree` (its position `state`) to the previous tree's node holding it, if any. */
  linkRoot(tree: PuctTree, root: number, state: Uint8Array): void {
    this.#now.reserve(tree.capacity);
    const previous = this.#previous;
    const last = this.#previousRoot;
    let from = -1;
    if (previous.size > 0 && last >= 0) {
      from = holds(previous, last, state) ? last : previous.findNear(last, state);
    }
    this.#now.recall[root] = from;
  }

  /** The previous tree's node at `node`'s position if it was evaluated there, else -1. */
  recalled(node: number): number {
    const from = this.#now.recall[node] as number;
    return from >= 0 && (this.#previous.firstChild[from] as number) >= 0 ? from : -1;
  }

  /**
   * Writes what the previous search knew of its node `from`: its position
   * into `state[stateAt ..]`, its children's positions into `children`
   * (action a at `childrenAt + a * STATE_WORDS`; both as 32-bit words), its
   * priors into `priors[priorsAt ..]`; returns its value. Its legal mask is
   * `legalMask(from)`.
   */
  recall(
    from: number,
    state: Uint32Array,
    stateAt: number,
    children: Uint32Array,
    childrenAt: number,
    priors: Float32Array,
    priorsAt: number,
  ): number {
    const previous = this.#previous;
    const words = previous.stateWords;
    copyState(words, from * STATE_WORDS, state, stateAt);
    const first = previous.firstChild[from] as number;
    const end = first + (previous.childCount[from] as number);
    for (let c = first; c < end; c++) {
      const to = childrenAt + (previous.action[c] as number) * STATE_WORDS;
      copyState(words, c * STATE_WORDS, children, to);
    }
    this.restore(from, priors, priorsAt);
    return this.#before.values[from] as number;
  }

  /** The previous search's priors of its node `from` into `priors[priorsAt ..]`; returns its value. */
  restore(from: number, priors: Float32Array, priorsAt: number): number {
    const remembered = this.#before.priors;
    const at = from * ACTIONS;
    for (let a = 0; a < ACTIONS; a++) priors[priorsAt + a] = remembered[at + a] as number;
    return this.#before.values[from] as number;
  }

  /** The legal actions of the previous tree's expanded node `from`, as a bit mask. */
  legalMask(from: number): number {
    const previous = this.#previous;
    const first = previous.firstChild[from] as number;
    const end = first + (previous.childCount[from] as number);
    let mask = 0;
    for (let c = first; c < end; c++) mask |= 1 << (previous.action[c] as number);
    return mask;
  }

  /**
   * Remembers `node`'s evaluation (its priors at `priors[priorsAt ..]` and
   * `value`) and links its children, just added to `tree`, to the previous
   * tree's children of `from` (-1: to none).
   */
  expanded(
    tree: PuctTree,
    node: number,
    priors: Float32Array,
    priorsAt: number,
    value: number,
    from: number,
  ): void {
    const now = this.#now;
    now.reserve(tree.capacity);
    const at = node * ACTIONS;
    for (let a = 0; a < ACTIONS; a++) now.priors[at + a] = priors[priorsAt + a] as number;
    now.values[node] = value;
    const first = tree.firstChild[node] as number;
    const count = tree.childCount[node] as number;
    const before = from >= 0 ? (this.#previous.firstChild[from] as number) : -1;
    for (let k = 0; k < count; k++) now.recall[first + k] = before >= 0 ? before + k : -1;
  }
}

function copyState(from: Uint32Array, at: number, to: Uint32Array, toAt: number): void {
  to[toAt] = from[at] as number;
  to[toAt + 1] = from[at + 1] as number;
  to[toAt + 2] = from[at + 2] as number;
  to[toAt + 3] = from[at + 3] as number;
}

function holds(tree: PuctTree, node: number, state: Uint8Array): boolean {
  const at = node * STATE_SIZE;
  for (let i = 0; i < STATE_SIZE; i++) if (tree.states[at + i] !== state[i]) return false;
  return true;
}
