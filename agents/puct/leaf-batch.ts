import { core, type RuleCode, type Rules, ruleCode } from '../../env/index.ts';
import type { EvaluationMemory } from './evaluation-memory.ts';
import { WIN_VALUE } from './simulation.ts';
import { type PuctTree, STATE_WORDS } from './tree.ts';

const { ACTIONS, POPCOUNT, STATE_SIZE, TO_MOVE, expand, finalScores } = core;

/**
 * Plays every action of a leaf's `state` into `children` (action a at
 * a * STATE_SIZE, as core.expand) and returns the legal mask: a driver that
 * must play the leaf's moves anyway (an observation encoder with lookahead
 * does) gives its own so that they are played once.
 */
export type LeafExpander = (state: Uint8Array, children: Uint8Array) => number;

/**
 * The leaves of one batch waiting for their evaluation: each leaf's node, its
 * state and legal mask (what an evaluator reads), the slots an evaluator
 * writes priors and values into, and the leaf's children, played once when
 * the leaf is selected and added to the tree when its evaluation arrives.
 */
export class LeafBatch {
  readonly nodes: Int32Array;
  /** STATE_SIZE bytes a leaf. */
  readonly states: Uint8Array;
  /** `states` as 32-bit words. */
  readonly #stateWords: Uint32Array;
  readonly masks: Uint8Array;
  /** ACTIONS priors a leaf. */
  readonly priors: Float32Array;
  /** Each leaf's value for its player to move. */
  readonly values: Float64Array;
  /**
   * Per leaf, the previous search's node whose evaluation it recalls
   * (EvaluationMemory), or -1 when the evaluator must give it.
   */
  readonly recalled: Int32Array;
  readonly #children: Uint8Array;
  /** `#children` as 32-bit words. */
  readonly #childWords: Uint32Array;
  /**
   * Each slot's children as one view, made once: the engine's expand keeps its
   * per-child views by buffer, so handing it the same view each time allocates
   * nothing (a fresh subarray a leaf cost six views and a map entry, and the
   * garbage collector's time).
   */
  readonly #slotChildren: Uint8Array[];
  readonly #status = new Uint8Array(ACTIONS);
  /** The leaf's state, copied out of the tree (whose storage may grow), and as words. */
  readonly #state = new Uint8Array(STATE_SIZE);
  readonly #stateWord = new Uint32Array(this.#state.buffer);
  readonly #scores = new Int32Array(2);
  #ruleCode: RuleCode;
  #expander: LeafExpander | null = null;

  constructor(size: number, rules: Rules) {
    this.nodes = new Int32Array(size);
    this.states = new Uint8Array(size * STATE_SIZE);
    this.#stateWords = new Uint32Array(this.states.buffer);
    this.masks = new Uint8Array(size);
    this.priors = new Float32Array(size * ACTIONS);
    this.values = new Float64Array(size);
    this.recalled = new Int32Array(size).fill(-1);
    this.#children = new Uint8Array(size * ACTIONS * STATE_SIZE);
    this.#childWords = new Uint32Array(this.#children.buffer);
    const slotBytes = ACTIONS * STATE_SIZE;
    this.#slotChildren = Array.from({ length: size }, (_, slot) =>
      this.#children.subarray(slot * slotBytes, (slot + 1) * slotBytes),
    );
    this.#ruleCode = ruleCode(rules);
  }

  /** Switches rule options. */
  useRules(rules: Rules): void {
    this.#ruleCode = ruleCode(rules);
  }

  /** Plays the leaves' moves with `expander` (null: core.expand under the batch's rules). */
  expandWith(expander: LeafExpander | null): void {
    this.#expander = expander;
  }

  /**
   * Plays a selected leaf's moves into slot `slot`, or, when the game is over
   * there, marks the node solved with its exact value (for the player who
   * moved into it).
   */
  play(tree: PuctTree, node: number, slot: number): void {
    this.recalled[slot] = -1;
    const state = this.#state;
    const word = this.#stateWord;
    const words = tree.stateWords;
    const at = node * STATE_WORDS;
    word[0] = words[at] as number;
    word[1] = words[at + 1] as number;
    word[2] = words[at + 2] as number;
    word[3] = words[at + 3] as number;
    const children = this.#slotChildren[slot] as Uint8Array;
    const expander = this.#expander;
    const mask =
      expander === null
        ? expand(state, this.#ruleCode, children, this.#status)
        : expander(state, children);
    if (mask === 0) {
      const scores = this.#scores;
      finalScores(state, 0, this.#ruleCode, scores);
      // The player who moved into a finished node is the one not to move there.
      const mover = 1 - (state[TO_MOVE] as number);
      const margin = (scores[mover] as number) - (scores[1 - mover] as number);
      tree.solved[node] = 1;
      tree.exact[node] = margin > 0 ? WIN_VALUE : margin < 0 ? -WIN_VALUE : 0;
      return;
    }
    const to = slot * STATE_WORDS;
    const slots = this.#stateWords;
    slots[to] = word[0] as number;
    slots[to + 1] = word[1] as number;
    slots[to + 2] = word[2] as number;
    slots[to + 3] = word[3] as number;
    this.masks[slot] = mask;
  }

  /**
   * Fills slot `slot` with what `memory` recalls of the previous search's
   * node `from` (evaluated there, so not a finished game): the leaf's state,
   * legal mask and children, and its priors and value, as `play` and an
   * evaluator would have written them.
   */
  recall(memory: EvaluationMemory, from: number, slot: number): void {
    this.recalled[slot] = from;
    this.masks[slot] = memory.legalMask(from);
    this.values[slot] = memory.recall(
      from,
      this.#stateWords,
      slot * STATE_WORDS,
      this.#childWords,
      slot * ACTIONS * STATE_WORDS,
      this.priors,
      slot * ACTIONS,
    );
  }

  /**
   * Adds the children of the leaf in `slot` to the tree, with the evaluator's
   * priors mixed with uniform ones: `priorWeight` of the evaluator's.
   */
  addChildren(tree: PuctTree, node: number, slot: number, priorWeight: number): void {
    const mask = this.masks[slot] as number;
    const count = POPCOUNT[mask] as number;
    const uniform = (1 - priorWeight) / count;
    const first = tree.size;
    const children = this.#childWords;
    const base = slot * ACTIONS;
    for (let a = 0; a < ACTIONS; a++) {
      if ((mask & (1 << a)) === 0) continue;
      const child = tree.addNode(
        node,
        a,
        priorWeight * (this.priors[base + a] as number) + uniform,
      );
      // Word by word: a subarray to `set` from would be garbage a child.
      const from = (base + a) * STATE_WORDS;
      const to = child * STATE_WORDS;
      const words = tree.stateWords;
      words[to] = children[from] as number;
      words[to + 1] = children[from + 1] as number;
      words[to + 2] = children[from + 2] as number;
      words[to + 3] = children[from + 3] as number;
    }
    tree.firstChild[node] = first;
    tree.childCount[node] = count;
  }
}
