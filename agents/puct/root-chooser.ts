/**
 * How a root search other than PUCT's rule plugs into the tree search: it
 * sees the root's children as a RootView before each simulation and answers
 * the action to simulate (Gumbel MuZero's Sequential Halving, gumbel.ts);
 * below the root the search selects by PUCT.
 */
import { core, type Random } from '../../env/index.ts';
import type { PuctResult } from './result.ts';
import type { PuctTree } from './tree.ts';

const { ACTIONS } = core;

/**
 * The root's children as a root chooser sees them before a simulation (arrays
 * of the 6 actions; 0 for illegal ones). Reused between calls: copy to keep.
 */
export interface RootView {
  readonly legalMask: number;
  readonly visits: Float64Array;
  /** Mean value of each action for the player to move (exact when proven; 0 if unvisited). */
  readonly q: Float64Array;
  /** The priors the search gives the root's children (after mixing and noise). */
  readonly priors: Float64Array;
  /** The evaluator's value of the root for the player to move. */
  readonly rawValue: number;
  /** Simulations run since the root was expanded (0 for the first chosen). */
  readonly simulation: number;
}

/**
 * Chooses the root action of the next simulation (a legal one) in place of
 * PUCT's rule, e.g. Gumbel MuZero's Sequential Halving (gumbel.ts); below the
 * root the search selects by PUCT.
 */
export type RootChooser = (root: RootView) => number;

/** What a root search needs of the tree search it drives (PuctSearch has it). */
export interface RootChooserSearch {
  /** Forgets any tree kept for reuse (a chooser's noise belongs to a fresh root). */
  reset(): void;
  /**
   * Searches `state` for `limits.simulations` simulations; `rootChooser`
   * picks the root action of each after the root's expansion.
   */
  search(
    state: Uint8Array,
    limits: { readonly simulations: number },
    rng: Random | null,
    rootChooser: RootChooser | null,
  ): PuctResult;
}

/**
 * A search's root chooser, if any: given at the start of a search, it takes
 * over once the root is expanded, and counts its simulations.
 */
export class RootChoice {
  #waiting: RootChooser | null = null;
  #active: RootChooser | null = null;
  #choices = 0;
  /** Whether the next choice is the first since `start` (the view's fixed parts are set then). */
  #fresh = false;
  readonly #view = {
    legalMask: 0,
    visits: new Float64Array(ACTIONS),
    q: new Float64Array(ACTIONS),
    priors: new Float64Array(ACTIONS),
    rawValue: 0,
    simulation: 0,
  };

  /** At a search's start: `chooser` waits for the root's expansion. */
  begin(chooser: RootChooser | null): void {
    this.#active = null;
    this.#waiting = chooser;
    this.#choices = 0;
  }

  /** The root is expanded: the waiting chooser picks from now on. */
  start(): void {
    this.#active = this.#waiting;
    this.#fresh = true;
  }

  /** The search is over (or its result taken): PUCT's rule is back at the root. */
  stop(): void {
    this.#active = null;
  }

  /** Whether a chooser picks the root's actions now. */
  get active(): boolean {
    return this.#active !== null;
  }

  /** The child of `root` the chooser picks (while active), the root's raw value `rawValue`. */
  choose(tree: PuctTree, root: number, rawValue: number): number {
    const view = this.#view;
    const first = tree.firstChild[root] as number;
    const end = first + (tree.childCount[root] as number);
    if (this.#fresh) {
      // Once the root is expanded (and noised) its children and their priors are
      // fixed for the search: set them, and zero the illegal actions, once.
      this.#fresh = false;
      view.legalMask = 0;
      view.visits.fill(0);
      view.q.fill(0);
      view.priors.fill(0);
      for (let c = first; c < end; c++) {
        const a = tree.action[c] as number;
        view.legalMask |= 1 << a;
        view.priors[a] = tree.prior[c] as number;
      }
    }
    for (let c = first; c < end; c++) {
      const a = tree.action[c] as number;
      view.visits[a] = tree.visits[c] as number;
      view.q[a] = tree.meanValue(c);
    }
    view.rawValue = rawValue;
    view.simulation = this.#choices++;
    const action = (this.#active as RootChooser)(view);
    for (let c = first; c < end; c++) if (tree.action[c] === action) return c;
    throw new RangeError(`the root chooser picked action ${action}, which is not legal here`);
  }
}
