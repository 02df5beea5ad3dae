import type { Evaluator } from '../../agents/evaluator.ts';
import { type PuctResult, PuctSearch } from '../../agents/puct/search.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { softmaxInto } from '../../models/softmax.ts';
import type { SearchesSetup, SelfPlaySearches } from './self-play-searches.ts';
import type { RootPlan } from './targets/index.ts';

/** The searches here are stepped by the driver, which evaluates their leaves itself. */
const DRIVER_EVALUATES: Evaluator = {
  evaluate() {
    throw new Error('SearchSelfPlay evaluates the leaves of its searches itself');
  },
};

/**
 * A SearchSelfPlay's searches as agents/puct's PuctSearch, one per game
 * (self-play-searches.ts): each leaf is encoded as its search selects it, the
 * encoder playing its moves for the lookahead and the search taking its
 * children from there.
 */
export class TypeScriptSearches implements SelfPlaySearches {
  readonly observations: Float32Array;
  readonly logits: Float32Array;
  readonly values: Float32Array;
  readonly #searches: PuctSearch[];
  readonly #searching: Uint8Array;
  readonly #simulations: number;
  // A step's leaves, in the games' order: each one's game and row of the
  // batch (-1: recalled from its search's last tree, not evaluated).
  readonly #leafGame: Int32Array;
  readonly #leafRow: Int32Array;
  #leaves = 0;
  /** The row the next leaf selected is encoded into (see selectLeaves). */
  #row = 0;

  constructor(setup: SearchesSetup) {
    const { games, encoder } = setup;
    this.observations = new Float32Array(games * encoder.size);
    this.logits = new Float32Array(games * NUM_ACTIONS);
    this.values = new Float32Array(games);
    this.#simulations = setup.simulations;
    this.#searches = Array.from(
      { length: games },
      () =>
        new PuctSearch(DRIVER_EVALUATES, {
          rules: setup.rules,
          // The network's own priors: the targets train them, and Gumbel's logits are read from them.
          priorWeight: 1,
          // A game's next search starts below this one's root: its leaves there need no network.
          rememberEvaluations: true,
          ...setup.target.searchOptions,
        }),
    );
    const encode = (state: Uint8Array, children: Uint8Array): number => {
      const mask = encoder.encode(state, this.observations, this.#row * encoder.size);
      children.set(encoder.children);
      return mask;
    };
    for (const search of this.#searches) search.expandLeavesWith(encode);
    this.#searching = new Uint8Array(games);
    this.#leafGame = new Int32Array(games);
    this.#leafRow = new Int32Array(games);
  }

  searching(g: number): boolean {
    return this.#searching[g] === 1;
  }

  stop(g: number): void {
    this.#searching[g] = 0;
  }

  reset(g: number): void {
    (this.#searches[g] as PuctSearch).reset();
  }

  begin(g: number, state: Uint8Array, plan: RootPlan): void {
    (this.#searches[g] as PuctSearch).begin(state, plan.noise, plan.gumbel?.chooser ?? null);
    this.#searching[g] = 1;
  }

  done(g: number): boolean {
    const search = this.#searches[g] as PuctSearch;
    if (search.rootSolved) return search.simulationsDone > 0;
    return search.simulationsDone >= this.#simulations + 1;
  }

  selectLeaves(): number {
    let rows = 0;
    let leaves = 0;
    for (let g = 0; g < this.#searches.length; g++) {
      if (this.#searching[g] === 0 || this.done(g)) continue;
      const search = this.#searches[g] as PuctSearch;
      // A leaf left waiting was encoded into this row as it was selected; a
      // finished game's is not evaluated, and the row is written over.
      this.#row = rows;
      if (search.selectLeaves(1) === 0) continue;
      this.#leafGame[leaves] = g;
      this.#leafRow[leaves++] = search.leafRecalled(0) ? -1 : rows++;
    }
    this.#leaves = leaves;
    return rows;
  }

  completeLeaves(): void {
    const { logits, values } = this;
    for (let i = 0; i < this.#leaves; i++) {
      const search = this.#searches[this.#leafGame[i] as number] as PuctSearch;
      const r = this.#leafRow[i] as number;
      if (r >= 0) {
        softmaxInto(logits, r * NUM_ACTIONS, search.leafMasks[0] as number, search.leafPriors, 0);
        search.leafValues[0] = values[r] as number;
      }
      search.completeLeaves();
    }
  }

  result(g: number): PuctResult {
    return (this.#searches[g] as PuctSearch).result();
  }
}
