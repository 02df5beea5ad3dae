/**
 * PUCT Monte Carlo tree search, put together from its parts in agents/puct/:
 * the tree's storage (tree.ts), a simulation's selection and backup with
 * virtual loss and proofs (simulation.ts), the batch of leaves waiting for
 * the evaluator (leaf-batch.ts), root noise (root-noise.ts), result building
 * and tie-breaks (result.ts), and the plug for another root rule such as
 * Gumbel's (root-chooser.ts). This file holds the options and the two ways to
 * drive a search: `search` with the search's own evaluator, or stepped by a
 * driver that evaluates the leaves of many searches at once.
 */
import { core, type Random, type Rules } from '../../env/index.ts';
import type { Evaluator } from '../evaluator.ts';
import { EvaluationMemory } from './evaluation-memory.ts';
import { LeafBatch, type LeafExpander } from './leaf-batch.ts';
import { buildResult, type PuctResult } from './result.ts';
import { RootChoice, type RootChooser } from './root-chooser.ts';
import { addRootNoise, checkRootNoise, type RootNoise } from './root-noise.ts';
import { addVirtualLoss, backUp, removeVirtualLoss, selectChild } from './simulation.ts';
import { PuctTree } from './tree.ts';

export type { LeafExpander } from './leaf-batch.ts';
export type { PuctResult } from './result.ts';
export type { RootChooser, RootChooserSearch, RootView } from './root-chooser.ts';
export type { RootNoise } from './root-noise.ts';

/** PUCT's c unless an option sets it. */
export const DEFAULT_EXPLORATION = 1.5;

export interface PuctOptions {
  readonly rules: Rules;
  /** c in Q + c P sqrt(N) / (1 + n); default DEFAULT_EXPLORATION. */
  readonly exploration?: number;
  /**
   * Weight of the evaluator's priors against uniform ones (1: the evaluator's
   * alone). Default 0.5: trained policies are nearly one-hot, and as raw priors
   * they starve every other move of visits (docs/calibration.md).
   */
  readonly priorWeight?: number;
  /** Dirichlet noise on the root priors (self-play only); none unless given. */
  readonly rootNoise?: RootNoise;
  /**
   * Leaves evaluated per call of the evaluator (default 1). Above 1, each
   * leaf's path carries a virtual loss until its value is backed up, so the
   * selections of one batch spread over the tree; this pays when the evaluator
   * is much cheaper per position in batches (tfjs) and costs a little search
   * quality otherwise.
   */
  readonly batchSize?: number;
  /**
   * Keep the tree from one search to the next: when the new position is a
   * child or grandchild of the last root (our move, then the reply), its
   * subtree becomes the root, visits and proofs included. Default false.
   */
  readonly reuseTree?: boolean;
  /** The most nodes its tree may hold (default MAX_TREE_NODES): a search that fills it stops. */
  readonly maxTreeNodes?: number;
  /**
   * Keep the last search's tree to recall its evaluations (evaluation-memory.ts):
   * a leaf whose position the last search evaluated, at the same path from a
   * root that was its root, child or grandchild, takes that evaluation and
   * need not be evaluated again (`leafRecalled`). The search is the same as
   * without; a stepped driver saves the work. Not with `reuseTree`. Default false.
   */
  readonly rememberEvaluations?: boolean;
}

/**
 * The most nodes a search's tree holds by default (about 440 MB): a search
 * that fills it stops there, whatever its budget, so that a long time limit
 * (or a large number of simulations) bounds its memory as well as its time.
 */
export const MAX_TREE_NODES = 1 << 23;

/** Stop after `simulations` simulations, or when `timeMs` has passed (at least one runs). */
export interface PuctLimits {
  readonly simulations?: number;
  readonly timeMs?: number;
}

const { ACTIONS, STATE_SIZE } = core;

/** A reused tree past this many nodes is dropped (about 60 MB). */
const REUSE_LIMIT = 1 << 20;

/**
 * PUCT Monte Carlo tree search (AlphaZero's selection rule) with a pluggable
 * leaf evaluator and no random playouts. Details that pay in this game
 * (docs/calibration.md):
 * - finished games are scored exactly (+1, 0, -1), and proven results are
 *   propagated up the tree (a node is won if one child wins for its mover, and
 *   decided once all children are): solved children are scored by their exact
 *   value, and the search stops once the root is solved;
 * - an unvisited child is valued at its parent's mean value (first-play urgency);
 * - priors are mixed with uniform ones (`priorWeight`).
 *
 * The tree is reused from one search to the next. Given the same evaluator
 * and a simulation budget the result is a function of the position alone;
 * randomness (root noise, ties in the agent) comes only from the generator
 * passed in.
 */
export class PuctSearch {
  readonly #evaluator: Evaluator;
  readonly #exploration: number;
  readonly #priorWeight: number;
  readonly #rootNoise: RootNoise | null;
  readonly #batchSize: number;
  readonly #maxTreeNodes: number;
  readonly #reuseTree: boolean;
  /** The tree of the search in progress (the memory swaps it with the last one's). */
  #tree = new PuctTree();
  readonly #memory: EvaluationMemory | null;
  readonly #batch: LeafBatch;
  readonly #rootChoice = new RootChoice();

  // The search in progress (see begin).
  /** The current root (node 0 unless a reused subtree is searched). */
  #root = 0;
  #done = 0;
  #waiting = 0;
  #evaluations = 0;
  #rootRawValue = 0;
  #rootReady = false;
  #reused = false;
  /** Whether the leaves waiting now carry virtual losses. */
  #virtualBatch = false;
  #noiseRng: Random | null = null;

  constructor(evaluator: Evaluator, options: PuctOptions) {
    this.#evaluator = evaluator;
    this.#exploration = options.exploration ?? DEFAULT_EXPLORATION;
    this.#priorWeight = options.priorWeight ?? 0.5;
    this.#rootNoise = options.rootNoise ?? null;
    if (!(this.#exploration > 0 && Number.isFinite(this.#exploration))) {
      throw new RangeError(`PUCT exploration must be a positive number, got ${this.#exploration}`);
    }
    if (!(this.#priorWeight >= 0 && this.#priorWeight <= 1)) {
      throw new RangeError(`PUCT prior weight must be in [0, 1], got ${this.#priorWeight}`);
    }
    if (this.#rootNoise !== null) checkRootNoise(this.#rootNoise);
    const batch = options.batchSize ?? 1;
    if (!(Number.isInteger(batch) && batch >= 1 && batch <= 1024)) {
      throw new RangeError(`PUCT batch size must be an integer in 1..1024, got ${batch}`);
    }
    this.#batchSize = batch;
    this.#maxTreeNodes = options.maxTreeNodes ?? MAX_TREE_NODES;
    // Root noise is drawn for a fresh root; a reused one would compound it.
    this.#reuseTree = (options.reuseTree ?? false) && this.#rootNoise === null;
    if (options.rememberEvaluations === true && options.reuseTree === true) {
      throw new RangeError('PUCT reuses the tree or remembers its evaluations, not both');
    }
    this.#memory = options.rememberEvaluations === true ? new EvaluationMemory() : null;
    this.#batch = new LeafBatch(batch, options.rules);
  }

  /** Switches rule options. */
  useRules(rules: Rules): void {
    this.#batch.useRules(rules);
  }

  /**
   * Plays each selected leaf's moves with `expander` (null: the engine's
   * expand under the search's rules), which must play them as the engine does
   * under the same rules: a driver that encodes each leaf with lookahead
   * (self-play) encodes it there, and the moves are played once.
   */
  expandLeavesWith(expander: LeafExpander | null): void {
    this.#batch.expandWith(expander);
  }

  /** Forgets the tree kept for reuse or for its evaluations (e.g. at a new game). */
  reset(): void {
    this.#tree.clear();
    this.#memory?.forget();
  }

  /**
   * Searches an unfinished state. `rng` is used only for root noise. The best
   * actions are those of a proven root's best exact value when the root is
   * solved, else the most visited ones (higher mean value breaking ties).
   * With a `rootChooser`, it picks the root action of every simulation after
   * the root's expansion, and leaves are evaluated one at a time.
   */
  search(
    state: Uint8Array,
    limits: PuctLimits,
    rng: Random | null = null,
    rootChooser: RootChooser | null = null,
  ): PuctResult {
    const { simulations, timeMs } = limits;
    if (simulations === undefined && timeMs === undefined) {
      throw new RangeError('PUCT needs a number of simulations or a time limit');
    }
    if (simulations !== undefined && !(Number.isInteger(simulations) && simulations >= 1)) {
      throw new RangeError(`PUCT simulations must be a positive integer, got ${simulations}`);
    }
    const start = performance.now();
    const deadline = timeMs === undefined ? Number.POSITIVE_INFINITY : start + timeMs;
    const maxSimulations = simulations ?? Number.POSITIVE_INFINITY;
    const batch = this.#batch;
    this.begin(state, rng, rootChooser);
    try {
      while (!this.#rootReady || (this.#done < maxSimulations && !this.rootSolved)) {
        if (this.#rootReady && timeMs !== undefined && performance.now() >= deadline) break;
        if (this.#tree.size + this.#batchSize * 6 > this.#maxTreeNodes) break;
        // selectLeaves caps this at the batch size (1 under a root chooser).
        const waiting = this.selectLeaves(maxSimulations - this.#done);
        if (waiting === 0) continue;
        this.#evaluator.evaluate(batch.states, batch.masks, waiting, batch.priors, batch.values);
        this.completeLeaves();
      }
      return this.result(performance.now() - start);
    } finally {
      this.#rootChoice.stop();
    }
  }

  // The stepped interface: begin, then selectLeaves / (evaluate) / completeLeaves
  // until enough simulations are done, then result. A driver that runs many
  // searches at once (self-play of many games) evaluates the leaves of all of
  // them in one batch this way; `search` is the same loop with this search's
  // own evaluator.

  /**
   * Starts a search of an unfinished `state` (reusing the kept tree if allowed
   * and possible). The first simulation expands the root; root noise and the
   * root chooser apply from the next one.
   */
  begin(
    state: Uint8Array,
    rng: Random | null = null,
    rootChooser: RootChooser | null = null,
  ): void {
    this.#evaluations = 0;
    const reused = this.#reuseTree ? this.#findReusable(state) : -1;
    const memory = this.#memory;
    if (memory !== null) this.#tree = memory.begin(this.#tree, this.#root);
    const tree = this.#tree;
    if (reused >= 0) {
      this.#root = reused;
      tree.parent[reused] = -1;
    } else {
      tree.clear();
      this.#root = tree.addNode(-1, -1, 0);
      tree.states.set(state.subarray(0, STATE_SIZE), 0);
      memory?.linkRoot(tree, this.#root, state);
    }
    this.#rootChoice.begin(rootChooser);
    this.#done = 0;
    this.#waiting = 0;
    this.#rootReady = false;
    this.#reused = reused >= 0;
    this.#noiseRng = rng;
  }

  /**
   * Selects up to `wanted` leaves (only one until the root is expanded).
   * Simulations that end in a finished game or a proven node are backed up at
   * once; the others wait, their states in `leafStates` and legal masks in
   * `leafMasks`, for priors and values in `leafPriors` and `leafValues`, then
   * `completeLeaves`. Returns the number waiting.
   */
  selectLeaves(wanted: number): number {
    if (this.#waiting > 0) throw new Error('selectLeaves: the last leaves are not completed yet');
    const capacity = this.#rootChoice.active ? 1 : this.#batchSize;
    const limit = this.#rootReady ? Math.max(1, Math.min(wanted, capacity)) : 1;
    this.#done += this.#select(limit);
    if (this.#waiting === 0) this.#readyRoot();
    return this.#waiting;
  }

  /** Expands the leaves `selectLeaves` left waiting with their evaluations, and backs them up. */
  completeLeaves(): void {
    const tree = this.#tree;
    const batch = this.#batch;
    const waiting = this.#waiting;
    this.#evaluations += waiting;
    const root = this.#root;
    const virtual = this.#virtualBatch;
    const memory = this.#memory;
    for (let i = 0; i < waiting; i++) {
      const node = batch.nodes[i] as number;
      const from = batch.recalled[i] as number;
      // A recalled leaf keeps the last search's evaluation, whatever the driver wrote.
      if (from >= 0)
        batch.values[i] = (memory as EvaluationMemory).restore(from, batch.priors, i * ACTIONS);
      const value = batch.values[i] as number;
      if (node === root) this.#rootRawValue = value;
      tree.pending[node] = 0;
      batch.addChildren(tree, node, i, this.#priorWeight);
      memory?.expanded(tree, node, batch.priors, i * ACTIONS, value, from);
      if (virtual) removeVirtualLoss(tree, node);
      backUp(tree, node, -value);
    }
    this.#done += waiting;
    this.#waiting = 0;
    this.#readyRoot();
  }

  /**
   * Whether waiting leaf `i` recalls the last search's evaluation
   * (`rememberEvaluations`): its priors and value are in place, and a driver
   * need not evaluate it (`completeLeaves` keeps the recalled ones).
   */
  leafRecalled(i: number): boolean {
    return (this.#batch.recalled[i] as number) >= 0;
  }

  /** The batch slots: states of the waiting leaves (16 bytes each). */
  get leafStates(): Uint8Array {
    return this.#batch.states;
  }
  /** Legal-action masks of the waiting leaves. */
  get leafMasks(): Uint8Array {
    return this.#batch.masks;
  }
  /** Where a driver writes each waiting leaf's 6 priors. */
  get leafPriors(): Float32Array {
    return this.#batch.priors;
  }
  /** Where a driver writes each waiting leaf's value for its player to move. */
  get leafValues(): Float64Array {
    return this.#batch.values;
  }
  /** Simulations completed since `begin`. */
  get simulationsDone(): number {
    return this.#done;
  }
  /** Whether the root's result is proven (searching on changes nothing). */
  get rootSolved(): boolean {
    return this.#tree.solved[this.#root] === 1;
  }

  /** The search's result so far (after at least the root's expansion). */
  result(elapsedMs = 0): PuctResult {
    if (!this.#rootReady) throw new Error('result: the root has not been expanded yet');
    this.#rootChoice.stop();
    return buildResult(this.#tree, this.#root, {
      simulations: this.#done,
      evaluations: this.#evaluations,
      rawValue: this.#rootRawValue,
      elapsedMs,
    });
  }

  /** After the root's expansion: checks it, then applies root noise and the root chooser. */
  #readyRoot(): void {
    if (this.#rootReady || this.#done === 0) return;
    const tree = this.#tree;
    const root = this.#root;
    if (tree.childCount[root] === 0) throw new RangeError('cannot search a finished game');
    if (this.#reused) {
      this.#rootRawValue = -(tree.valueSum[root] as number) / (tree.visits[root] as number);
    }
    if (this.#rootNoise !== null && this.#noiseRng !== null && !this.#reused) {
      addRootNoise(tree, root, this.#rootNoise, this.#noiseRng);
    }
    this.#rootChoice.start();
    this.#rootReady = true;
  }

  /** The kept tree's node for `state` near its root, or -1 (also when the tree is too big to keep). */
  #findReusable(state: Uint8Array): number {
    const tree = this.#tree;
    if (tree.size === 0 || tree.size > REUSE_LIMIT) return -1;
    return tree.findNear(this.#root, state);
  }

  /**
   * Up to `wanted` simulations: selects leaves (each path under a virtual loss
   * when more than one is wanted), scores finished games and proven nodes at
   * once, and leaves the others waiting for their evaluation. Stops collecting
   * at a leaf already waiting in this batch. Returns the simulations done;
   * the number waiting goes to `#waiting`.
   */
  #select(wanted: number): number {
    const tree = this.#tree;
    const batch = this.#batch;
    const choice = this.#rootChoice;
    const exploration = this.#exploration;
    const memory = this.#memory;
    let done = 0;
    let waiting = 0;
    const virtual = wanted > 1;
    this.#virtualBatch = virtual;
    const root = this.#root;
    while (done + waiting < wanted && tree.solved[root] === 0) {
      let node = root;
      if (virtual) addVirtualLoss(tree, node, 1);
      while (tree.isExpanded(node)) {
        node =
          node === root && choice.active
            ? choice.choose(tree, root, this.#rootRawValue)
            : selectChild(tree, node, exploration);
        if (virtual) addVirtualLoss(tree, node, 1);
      }
      if (tree.pending[node] === 1) {
        if (virtual) removeVirtualLoss(tree, node);
        break;
      }
      if (tree.solved[node] === 0) {
        const from = memory === null ? -1 : memory.recalled(node);
        if (from >= 0) batch.recall(memory as EvaluationMemory, from, waiting);
        else batch.play(tree, node, waiting);
      }
      if (tree.solved[node] === 1) {
        if (virtual) removeVirtualLoss(tree, node);
        backUp(tree, node, tree.exact[node] as number);
        done++;
        continue;
      }
      tree.pending[node] = 1;
      batch.nodes[waiting++] = node;
    }
    this.#waiting = waiting;
    return done;
  }
}
