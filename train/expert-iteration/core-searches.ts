import { type CoreEncoding, SearchCore } from '../../agents/puct/core/search-core.ts';
import { consideredVisitSequence, rootLogits } from '../../agents/puct/gumbel.ts';
import { buildResult, type PuctResult } from '../../agents/puct/result.ts';
import { addRootNoise, type RootNoise } from '../../agents/puct/root-noise.ts';
import { DEFAULT_EXPLORATION } from '../../agents/puct/search.ts';
import { core, type Random, ruleCode } from '../../env/index.ts';
import type { SearchesSetup, SelfPlaySearches } from './self-play-searches.ts';
import type { RootPlan } from './targets/index.ts';

const { ACTIONS, STATE_SIZE } = core;

/**
 * A SearchSelfPlay's searches in the WebAssembly search core (search-core.c),
 * the same searches as typescript-searches.ts float for float: the core
 * selects, encodes, takes the network's outputs (its softmax is
 * models/softmax.ts's), expands and backs up; this side draws the root noise
 * and computes Gumbel's root logits when a root is expanded, and builds each
 * move's result from the core's tree (agents/puct/result.ts).
 */
export class CoreSearches implements SelfPlaySearches {
  readonly observations: Float32Array;
  readonly logits: Float32Array;
  readonly values: Float32Array;
  readonly #core: SearchCore;
  readonly #rootNoise: RootNoise | null;
  /** Per game, the generator its search draws root noise from (PUCT at the root). */
  readonly #noise: (Random | null)[];
  /** Per game, its slots of the core's root logits and their softmax. */
  readonly #rootLogits: Float64Array[];
  readonly #rootSoftmax: Float64Array[];
  /** A root's priors by action, as the Gumbel chooser's view holds them. */
  readonly #rootPriors = new Float64Array(ACTIONS);
  #leaves = 0;

  /** `encoding`: the board of the setup's observation, which the core encodes (coreEncoding). */
  constructor(setup: SearchesSetup, encoding: CoreEncoding) {
    const { games, simulations, encoder } = setup;
    this.#core = new SearchCore({
      games,
      simulations,
      encoding,
      ruleCode: ruleCode(setup.rules),
      // Self-play's searches keep PuctSearch's default c.
      exploration: DEFAULT_EXPLORATION,
      valueScale: setup.completedQScale,
      gumbel: setup.gumbel,
    });
    if (this.#core.observationSize !== encoder.size) {
      throw new Error(
        `the search core writes ${this.#core.observationSize} floats an observation, the encoder ${encoder.size}`,
      );
    }
    this.observations = this.#core.observations;
    this.logits = this.#core.netLogits;
    this.values = this.#core.netValues;
    // Gumbel's default maxConsidered (16) considers every legal action.
    for (let legal = 1; legal <= ACTIONS; legal++) {
      this.#core.sequences.set(
        consideredVisitSequence(legal, simulations),
        (legal - 1) * simulations,
      );
    }
    const views = (array: Float64Array) =>
      Array.from({ length: games }, (_, g) => array.subarray(g * ACTIONS, (g + 1) * ACTIONS));
    this.#rootLogits = views(this.#core.logits);
    this.#rootSoftmax = views(this.#core.priors);
    this.#rootNoise = setup.target.searchOptions.rootNoise ?? null;
    this.#noise = new Array<Random | null>(games).fill(null);
  }

  searching(g: number): boolean {
    return this.#core.searching[g] === 1;
  }

  stop(g: number): void {
    this.#core.searching[g] = 0;
  }

  reset(g: number): void {
    this.#core.reset(g);
  }

  begin(g: number, state: Uint8Array, plan: RootPlan): void {
    const core = this.#core;
    core.rootStates.set(state.subarray(0, STATE_SIZE), g * STATE_SIZE);
    if (plan.gumbel !== null) core.gumbel.set(plan.gumbel.noise, g * ACTIONS);
    this.#noise[g] = plan.noise;
    core.begin(g);
  }

  done(g: number): boolean {
    return this.#core.finished[g] === 1;
  }

  selectLeaves(): number {
    this.#leaves = this.#core.selectAll();
    return this.#core.stepRows();
  }

  completeLeaves(): void {
    const core = this.#core;
    const { stepGame } = core;
    const leaves = this.#leaves;
    core.completeAll(leaves);
    // The roots expanded in this step, in the games' order, as the TypeScript
    // searches ready them (the root noise's draws come in that order).
    for (let i = 0; i < leaves; i++) {
      const g = stepGame[i] as number;
      if (core.ready[g] === 0) continue;
      core.ready[g] = 0;
      this.#readyRoot(g);
    }
  }

  result(g: number): PuctResult {
    const core = this.#core;
    return buildResult(core.tree(g), core.root[g] as number, {
      simulations: core.done[g] as number,
      evaluations: core.evaluations[g] as number,
      rawValue: core.rootRaw[g] as number,
      elapsedMs: 0,
    });
  }

  /** Game g's root is expanded: its root noise (PUCT), or Gumbel's logits of its priors. */
  #readyRoot(g: number): void {
    const core = this.#core;
    const tree = core.tree(g);
    const root = core.root[g] as number;
    const noise = this.#noise[g] as Random | null;
    if (this.#rootNoise !== null && noise !== null)
      addRootNoise(tree, root, this.#rootNoise, noise);
    if (!core.options.gumbel) return;
    const priors = this.#rootPriors;
    priors.fill(0);
    let legalMask = 0;
    const first = tree.firstChild[root] as number;
    const end = first + (tree.childCount[root] as number);
    for (let c = first; c < end; c++) {
      const a = tree.action[c] as number;
      legalMask |= 1 << a;
      priors[a] = tree.prior[c] as number;
    }
    core.maxLogit[g] = rootLogits(
      priors,
      legalMask,
      this.#rootLogits[g] as Float64Array,
      this.#rootSoftmax[g] as Float64Array,
    );
  }
}
