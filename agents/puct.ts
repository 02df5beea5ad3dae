import { core, type Random, type Rules } from '../env/index.ts';
import type { Evaluator } from './evaluator.ts';

const { ACTIONS, POPCOUNT, STATE_SIZE, TO_MOVE, expand, finalScores } = core;

export interface PuctOptions {
  readonly rules: Rules;
  /** c in Q + c P sqrt(N) / (1 + n); default 1.5. */
  readonly exploration?: number;
  /**
   * Weight of the evaluator's priors against uniform ones (1: the evaluator's
   * alone). Default 0.5: trained policies are nearly one-hot, and as raw priors
   * they starve every other move of visits (docs/calibration.md).
   */
  readonly priorWeight?: number;
  /** Dirichlet noise on the root priors (self-play only); none unless given. */
  readonly rootNoise?: { readonly alpha: number; readonly fraction: number };
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
}

/** Stop after `simulations` simulations, or when `timeMs` has passed (at least one runs). */
export interface PuctLimits {
  readonly simulations?: number;
  readonly timeMs?: number;
}

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
  /** The actions the search rates best (see PuctSearch.search); the agent picks among them. */
  readonly bestActions: readonly number[];
  readonly simulations: number;
  /** Positions handed to the evaluator. */
  readonly evaluations: number;
  readonly elapsedMs: number;
}

const INITIAL_CAPACITY = 4096;
/** A reused tree past this many nodes is dropped (about 60 MB). */
const REUSE_LIMIT = 1 << 20;
/** Nodes of a finished game are exact; +1 is the best any value can be. */
const WIN_VALUE = 1;

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
 * The tree lives in typed arrays that grow by doubling and are reused from one
 * search to the next. Given the same evaluator and a simulation budget the
 * result is a function of the position alone; randomness (root noise, ties in
 * the agent) comes only from the generator passed in.
 */
export class PuctSearch {
  #captureSeedStays: boolean;
  #leftoverToOwner: boolean;
  readonly #evaluator: Evaluator;
  readonly #exploration: number;
  readonly #priorWeight: number;
  readonly #rootNoise: { readonly alpha: number; readonly fraction: number } | null;
  readonly #batchSize: number;
  readonly #reuseTree: boolean;
  /** The current root (node 0 unless a reused subtree is searched). */
  #root = 0;

  #capacity = 0;
  #size = 0;
  #states = new Uint8Array(0);
  #parent = new Int32Array(0);
  #action = new Int8Array(0);
  #prior = new Float32Array(0);
  #visits = new Int32Array(0);
  /** Sum of backed-up values for the player who moved into the node. */
  #valueSum = new Float64Array(0);
  /** First child (-1 while unexpanded) and number of children (the legal actions). */
  #firstChild = new Int32Array(0);
  #childCount = new Uint8Array(0);
  /** 1 when the node's value is exact: `#exact`, for the player who moved into it. */
  #solved = new Uint8Array(0);
  #exact = new Float64Array(0);

  /** 1 while a node waits in the current batch for its evaluation. */
  #pending = new Uint8Array(0);
  // The batch: each leaf, its state, legal mask and children (played once, at selection).
  readonly #leaves: Int32Array;
  readonly #leafStates: Uint8Array;
  readonly #leafMasks: Uint8Array;
  readonly #leafChildren: Uint8Array;
  readonly #leafPriors: Float32Array;
  readonly #leafValues: Float64Array;
  readonly #status = new Uint8Array(ACTIONS);
  readonly #scores = new Int32Array(2);
  #evaluations = 0;
  #rootRawValue = 0;
  #rootChooser: RootChooser | null = null;
  #rootChoices = 0;
  // The stepped search's progress (see begin).
  #done = 0;
  #waiting = 0;
  #rootReady = false;
  #reused = false;
  #virtualBatch = false;
  #noiseRng: Random | null = null;
  #nextRootChooser: RootChooser | null = null;
  readonly #rootView = {
    legalMask: 0,
    visits: new Float64Array(ACTIONS),
    q: new Float64Array(ACTIONS),
    priors: new Float64Array(ACTIONS),
    rawValue: 0,
    simulation: 0,
  };

  constructor(evaluator: Evaluator, options: PuctOptions) {
    this.#evaluator = evaluator;
    this.#captureSeedStays = options.rules.captureSeedStays;
    this.#leftoverToOwner = options.rules.leftoverTo === 'owner';
    this.#exploration = options.exploration ?? 1.5;
    this.#priorWeight = options.priorWeight ?? 0.5;
    this.#rootNoise = options.rootNoise ?? null;
    if (!(this.#exploration > 0 && Number.isFinite(this.#exploration))) {
      throw new RangeError(`PUCT exploration must be a positive number, got ${this.#exploration}`);
    }
    if (!(this.#priorWeight >= 0 && this.#priorWeight <= 1)) {
      throw new RangeError(`PUCT prior weight must be in [0, 1], got ${this.#priorWeight}`);
    }
    const noise = this.#rootNoise;
    if (noise !== null && !(noise.alpha > 0 && noise.fraction >= 0 && noise.fraction <= 1)) {
      throw new RangeError(
        `root noise needs alpha > 0 and a fraction in [0, 1], got ${JSON.stringify(noise)}`,
      );
    }
    const batch = options.batchSize ?? 1;
    if (!(Number.isInteger(batch) && batch >= 1 && batch <= 1024)) {
      throw new RangeError(`PUCT batch size must be an integer in 1..1024, got ${batch}`);
    }
    this.#batchSize = batch;
    // Root noise is drawn for a fresh root; a reused one would compound it.
    this.#reuseTree = (options.reuseTree ?? false) && this.#rootNoise === null;
    this.#leaves = new Int32Array(batch);
    this.#leafStates = new Uint8Array(batch * STATE_SIZE);
    this.#leafMasks = new Uint8Array(batch);
    this.#leafChildren = new Uint8Array(batch * ACTIONS * STATE_SIZE);
    this.#leafPriors = new Float32Array(batch * ACTIONS);
    this.#leafValues = new Float64Array(batch);
    this.#grow(INITIAL_CAPACITY);
  }

  /** Switches rule options. */
  useRules(rules: Rules): void {
    this.#captureSeedStays = rules.captureSeedStays;
    this.#leftoverToOwner = rules.leftoverTo === 'owner';
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
    this.begin(state, rng, rootChooser);
    try {
      while (!this.#rootReady || (this.#done < maxSimulations && !this.rootSolved)) {
        if (this.#rootReady && timeMs !== undefined && performance.now() >= deadline) break;
        // selectLeaves caps this at the batch size (1 under a root chooser).
        const waiting = this.selectLeaves(maxSimulations - this.#done);
        if (waiting === 0) continue;
        this.#evaluator.evaluate(
          this.#leafStates,
          this.#leafMasks,
          waiting,
          this.#leafPriors,
          this.#leafValues,
        );
        this.completeLeaves();
      }
      return this.result(performance.now() - start);
    } finally {
      this.#rootChooser = null;
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
    let root: number;
    if (reused >= 0) {
      root = reused;
      this.#parent[root] = -1;
    } else {
      this.#size = 0;
      root = this.#addNode(-1, -1, 0);
      this.#states.set(state.subarray(0, STATE_SIZE), 0);
    }
    this.#root = root;
    this.#rootChooser = null;
    this.#rootChoices = 0;
    this.#done = 0;
    this.#waiting = 0;
    this.#rootReady = false;
    this.#reused = reused >= 0;
    this.#noiseRng = rng;
    this.#nextRootChooser = rootChooser;
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
    const limit = this.#rootReady ? Math.max(1, Math.min(wanted, this.#batchCapacity())) : 1;
    this.#done += this.#select(limit);
    if (this.#waiting === 0) this.#readyRoot();
    return this.#waiting;
  }

  /** Expands the leaves `selectLeaves` left waiting with their evaluations, and backs them up. */
  completeLeaves(): void {
    const waiting = this.#waiting;
    this.#evaluations += waiting;
    const root = this.#root;
    const virtual = this.#virtualBatch;
    for (let i = 0; i < waiting; i++) {
      const node = this.#leaves[i] as number;
      if (node === root) this.#rootRawValue = this.#leafValues[i] as number;
      this.#pending[node] = 0;
      this.#addChildren(node, i);
      if (virtual) this.#removeVirtualLoss(node);
      this.#backUp(node, -(this.#leafValues[i] as number));
    }
    this.#done += waiting;
    this.#waiting = 0;
    this.#readyRoot();
  }

  /** The batch slots: states of the waiting leaves (16 bytes each). */
  get leafStates(): Uint8Array {
    return this.#leafStates;
  }
  /** Legal-action masks of the waiting leaves. */
  get leafMasks(): Uint8Array {
    return this.#leafMasks;
  }
  /** Where a driver writes each waiting leaf's 6 priors. */
  get leafPriors(): Float32Array {
    return this.#leafPriors;
  }
  /** Where a driver writes each waiting leaf's value for its player to move. */
  get leafValues(): Float64Array {
    return this.#leafValues;
  }
  /** Simulations completed since `begin`. */
  get simulationsDone(): number {
    return this.#done;
  }
  /** Whether the root's result is proven (searching on changes nothing). */
  get rootSolved(): boolean {
    return this.#solved[this.#root] === 1;
  }

  /** The search's result so far (after at least the root's expansion). */
  result(elapsedMs = 0): PuctResult {
    if (!this.#rootReady) throw new Error('result: the root has not been expanded yet');
    this.#rootChooser = null;
    return this.#result(this.#done, elapsedMs);
  }

  #batchCapacity(): number {
    return this.#rootChooser === null ? this.#batchSize : 1;
  }

  /** After the root's expansion: checks it, then applies root noise and the root chooser. */
  #readyRoot(): void {
    if (this.#rootReady || this.#done === 0) return;
    const root = this.#root;
    if (this.#childCount[root] === 0) throw new RangeError('cannot search a finished game');
    if (this.#reused)
      this.#rootRawValue = -(this.#valueSum[root] as number) / (this.#visits[root] as number);
    if (this.#rootNoise !== null && this.#noiseRng !== null && !this.#reused)
      this.#addRootNoise(this.#noiseRng);
    this.#rootChooser = this.#nextRootChooser;
    this.#rootReady = true;
  }

  /** Forgets the tree kept for reuse (e.g. at a new game). */
  reset(): void {
    this.#size = 0;
  }

  /**
   * The expanded node of the last tree, within two plies of its root, whose
   * state is `state`; -1 if none (or the tree is too big to keep growing).
   */
  #findReusable(state: Uint8Array): number {
    if (this.#size === 0 || this.#size > REUSE_LIMIT) return -1;
    const same = (node: number): boolean => {
      const at = node * STATE_SIZE;
      for (let i = 0; i < STATE_SIZE; i++) if (this.#states[at + i] !== state[i]) return false;
      return true;
    };
    const expanded = (node: number): boolean =>
      (this.#firstChild[node] as number) >= 0 && this.#solved[node] === 0;
    const root = this.#root;
    if (!expanded(root)) return -1;
    const first = this.#firstChild[root] as number;
    const end = first + (this.#childCount[root] as number);
    for (let c = first; c < end; c++) {
      if (same(c)) return expanded(c) ? c : -1;
      if (!expanded(c)) continue;
      const g0 = this.#firstChild[c] as number;
      const g1 = g0 + (this.#childCount[c] as number);
      for (let g = g0; g < g1; g++) if (same(g)) return expanded(g) ? g : -1;
    }
    return -1;
  }

  #grow(capacity: number): void {
    const copy = <T extends { set(a: ArrayLike<number>): void }>(
      next: T,
      prev: ArrayLike<number>,
    ): T => {
      next.set(prev);
      return next;
    };
    this.#states = copy(new Uint8Array(capacity * STATE_SIZE), this.#states);
    this.#parent = copy(new Int32Array(capacity), this.#parent);
    this.#action = copy(new Int8Array(capacity), this.#action);
    this.#prior = copy(new Float32Array(capacity), this.#prior);
    this.#visits = copy(new Int32Array(capacity), this.#visits);
    this.#valueSum = copy(new Float64Array(capacity), this.#valueSum);
    this.#firstChild = copy(new Int32Array(capacity), this.#firstChild);
    this.#childCount = copy(new Uint8Array(capacity), this.#childCount);
    this.#solved = copy(new Uint8Array(capacity), this.#solved);
    this.#exact = copy(new Float64Array(capacity), this.#exact);
    this.#pending = copy(new Uint8Array(capacity), this.#pending);
    this.#capacity = capacity;
  }

  #addNode(parent: number, action: number, prior: number): number {
    if (this.#size === this.#capacity) this.#grow(this.#capacity * 2);
    const node = this.#size++;
    this.#parent[node] = parent;
    this.#action[node] = action;
    this.#prior[node] = prior;
    this.#visits[node] = 0;
    this.#valueSum[node] = 0;
    this.#firstChild[node] = -1;
    this.#childCount[node] = 0;
    this.#solved[node] = 0;
    this.#exact[node] = 0;
    this.#pending[node] = 0;
    return node;
  }

  /**
   * Up to `wanted` simulations: selects leaves (each path under a virtual loss
   * when more than one is wanted), scores finished games and proven nodes at
   * once, and leaves the others waiting for their evaluation. Stops collecting
   * at a leaf already waiting in this batch. Returns the simulations done;
   * the number waiting goes to `#waiting`.
   */
  #select(wanted: number): number {
    let done = 0;
    let waiting = 0;
    const virtual = wanted > 1;
    this.#virtualBatch = virtual;
    const root = this.#root;
    while (done + waiting < wanted && this.#solved[root] === 0) {
      let node = root;
      if (virtual) this.#addVirtualLoss(node, 1);
      while ((this.#firstChild[node] as number) >= 0 && this.#solved[node] === 0) {
        node =
          node === root && this.#rootChooser !== null
            ? this.#chosenChild(root)
            : this.#selectChild(node);
        if (virtual) this.#addVirtualLoss(node, 1);
      }
      if (this.#pending[node] === 1) {
        if (virtual) this.#removeVirtualLoss(node);
        break;
      }
      if (this.#solved[node] === 0) this.#play(node, waiting);
      if (this.#solved[node] === 1) {
        if (virtual) this.#removeVirtualLoss(node);
        this.#backUp(node, this.#exact[node] as number);
        done++;
        continue;
      }
      this.#pending[node] = 1;
      this.#leaves[waiting++] = node;
    }
    this.#waiting = waiting;
    return done;
  }

  /**
   * Plays a selected leaf's moves into batch slot `slot`, or marks the leaf
   * solved with its exact value (for the player who moved into it) when the
   * game is over there.
   */
  #play(node: number, slot: number): void {
    const stateOffset = node * STATE_SIZE;
    const state = this.#states.subarray(stateOffset, stateOffset + STATE_SIZE);
    const children = this.#leafChildren.subarray(
      slot * ACTIONS * STATE_SIZE,
      (slot + 1) * ACTIONS * STATE_SIZE,
    );
    const mask = expand(state, this.#captureSeedStays, children, this.#status);
    if (mask === 0) {
      const scores = this.#scores;
      finalScores(state, 0, this.#leftoverToOwner, scores);
      // The player who moved into a finished node is the one not to move there.
      const mover = 1 - (state[TO_MOVE] as number);
      const margin = (scores[mover] as number) - (scores[1 - mover] as number);
      this.#solved[node] = 1;
      this.#exact[node] = margin > 0 ? WIN_VALUE : margin < 0 ? -WIN_VALUE : 0;
      return;
    }
    this.#leafStates.set(state, slot * STATE_SIZE);
    this.#leafMasks[slot] = mask;
  }

  /** Adds the children of an evaluated leaf, with the evaluator's priors mixed with uniform. */
  #addChildren(node: number, slot: number): void {
    const mask = this.#leafMasks[slot] as number;
    const count = POPCOUNT[mask] as number;
    const weight = this.#priorWeight;
    const uniform = (1 - weight) / count;
    const first = this.#size;
    const children = this.#leafChildren;
    const base = slot * ACTIONS;
    for (let a = 0; a < ACTIONS; a++) {
      if ((mask & (1 << a)) === 0) continue;
      const child = this.#addNode(
        node,
        a,
        weight * (this.#leafPriors[base + a] as number) + uniform,
      );
      const from = (base + a) * STATE_SIZE;
      this.#states.set(children.subarray(from, from + STATE_SIZE), child * STATE_SIZE);
    }
    this.#firstChild[node] = first;
    this.#childCount[node] = count;
  }

  /** Counts a pending visit of `node` as a loss for the player who moved into it. */
  #addVirtualLoss(node: number, amount: number): void {
    this.#visits[node] = (this.#visits[node] as number) + amount;
    this.#valueSum[node] = (this.#valueSum[node] as number) - amount;
  }

  /** Takes the virtual losses of the path from `leaf` to the root back. */
  #removeVirtualLoss(leaf: number): void {
    for (let node = leaf; node >= 0; node = this.#parent[node] as number) {
      this.#addVirtualLoss(node, -1);
    }
  }

  /** The root's child the root chooser picks. */
  #chosenChild(root: number): number {
    const view = this.#rootView;
    const first = this.#firstChild[root] as number;
    const end = first + (this.#childCount[root] as number);
    view.legalMask = 0;
    view.visits.fill(0);
    view.q.fill(0);
    view.priors.fill(0);
    for (let c = first; c < end; c++) {
      const a = this.#action[c] as number;
      view.legalMask |= 1 << a;
      view.visits[a] = this.#visits[c] as number;
      view.q[a] = this.#meanValue(c);
      view.priors[a] = this.#prior[c] as number;
    }
    view.rawValue = this.#rootRawValue;
    view.simulation = this.#rootChoices++;
    const action = (this.#rootChooser as RootChooser)(view);
    for (let c = first; c < end; c++) if (this.#action[c] === action) return c;
    throw new RangeError(`the root chooser picked action ${action}, which is not legal here`);
  }

  /** A child's value for the player who moved into it: exact when proven, else its mean (0 unvisited). */
  #meanValue(c: number): number {
    if (this.#solved[c] === 1) return this.#exact[c] as number;
    const n = this.#visits[c] as number;
    return n > 0 ? (this.#valueSum[c] as number) / n : 0;
  }

  /** The child maximising Q + c P sqrt(N) / (1 + n), Q from the parent's mover's side. */
  #selectChild(node: number): number {
    const visits = this.#visits;
    const parentVisits = visits[node] as number;
    // First-play urgency: an unvisited child is worth the parent's mean value.
    const parentQ = -(this.#valueSum[node] as number) / parentVisits;
    const scale = this.#exploration * Math.sqrt(parentVisits);
    const first = this.#firstChild[node] as number;
    const end = first + (this.#childCount[node] as number);
    let best = first;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let c = first; c < end; c++) {
      const n = visits[c] as number;
      const q =
        this.#solved[c] === 1
          ? (this.#exact[c] as number)
          : n === 0
            ? parentQ
            : (this.#valueSum[c] as number) / n;
      const score = q + (scale * (this.#prior[c] as number)) / (1 + n);
      if (score > bestScore) {
        bestScore = score;
        best = c;
      }
    }
    return best;
  }

  /**
   * Adds `value` (for the player who moved into `leaf`) to the path, negating
   * at each ply, and solves parents whose result the new exact value settles.
   */
  #backUp(leaf: number, leafValue: number): void {
    let value = leafValue;
    let solving = this.#solved[leaf] === 1;
    for (let node = leaf; node >= 0; node = this.#parent[node] as number) {
      this.#visits[node] = (this.#visits[node] as number) + 1;
      this.#valueSum[node] = (this.#valueSum[node] as number) + value;
      value = -value;
      const parent = this.#parent[node] as number;
      if (solving && parent >= 0 && this.#solved[parent] === 0) solving = this.#trySolve(parent);
      else solving = false;
    }
  }

  /** Marks `node` solved if its children settle its result; returns whether it did. */
  #trySolve(node: number): boolean {
    const first = this.#firstChild[node] as number;
    const end = first + (this.#childCount[node] as number);
    let best = Number.NEGATIVE_INFINITY;
    let allSolved = true;
    for (let c = first; c < end; c++) {
      if (this.#solved[c] === 0) {
        allSolved = false;
        continue;
      }
      const exact = this.#exact[c] as number;
      if (exact > best) best = exact;
    }
    if (best !== WIN_VALUE && !allSolved) return false;
    this.#solved[node] = 1;
    this.#exact[node] = -best;
    return true;
  }

  #addRootNoise(rng: Random): void {
    const { alpha, fraction } = this.#rootNoise as { alpha: number; fraction: number };
    const first = this.#firstChild[this.#root] as number;
    const count = this.#childCount[this.#root] as number;
    const noise = new Float64Array(count);
    let sum = 0;
    for (let i = 0; i < count; i++) {
      noise[i] = sampleGamma(alpha, rng);
      sum += noise[i] as number;
    }
    for (let i = 0; i < count; i++) {
      const share = sum > 0 ? (noise[i] as number) / sum : 1 / count;
      const c = first + i;
      this.#prior[c] = (1 - fraction) * (this.#prior[c] as number) + fraction * share;
    }
  }

  #result(simulations: number, elapsedMs: number): PuctResult {
    const visits = new Float64Array(ACTIONS);
    const policy = new Float64Array(ACTIONS);
    const q = new Float64Array(ACTIONS);
    const priors = new Float64Array(ACTIONS);
    const root = this.#root;
    const first = this.#firstChild[root] as number;
    const end = first + (this.#childCount[root] as number);
    const rootSolved = this.#solved[root] === 1;
    let legalMask = 0;
    let total = 0;
    for (let c = first; c < end; c++) {
      const a = this.#action[c] as number;
      legalMask |= 1 << a;
      const n = this.#visits[c] as number;
      visits[a] = n;
      total += n;
      q[a] = this.#meanValue(c);
      priors[a] = this.#prior[c] as number;
    }
    for (let a = 0; a < ACTIONS; a++) policy[a] = total > 0 ? (visits[a] as number) / total : 0;
    if (total === 0) {
      // A single simulation only expanded the root: fall back to uniform over the legal actions.
      const share = 1 / (POPCOUNT[legalMask] as number);
      for (let a = 0; a < ACTIONS; a++) policy[a] = legalMask & (1 << a) ? share : 0;
    }

    const bestActions: number[] = [];
    if (rootSolved) {
      // The best exact value, the most visited among the moves reaching it.
      let bestExact = Number.NEGATIVE_INFINITY;
      for (let c = first; c < end; c++) {
        if (this.#solved[c] === 1 && (this.#exact[c] as number) > bestExact) {
          bestExact = this.#exact[c] as number;
        }
      }
      this.#mostVisited(
        first,
        end,
        (c) => this.#solved[c] === 1 && this.#exact[c] === bestExact,
        bestActions,
      );
    } else {
      // Never a proven loss while some move is not one.
      const lost = (c: number): boolean => this.#solved[c] === 1 && this.#exact[c] === -WIN_VALUE;
      let anyNotLost = false;
      for (let c = first; c < end; c++) if (!lost(c)) anyNotLost = true;
      this.#mostVisited(first, end, (c) => !anyNotLost || !lost(c), bestActions);
    }
    const rootValue = rootSolved
      ? -(this.#exact[root] as number)
      : -(this.#valueSum[root] as number) / (this.#visits[root] as number);
    return {
      visits,
      policy,
      q,
      legalMask,
      value: rootValue,
      rawValue: this.#rootRawValue,
      priors,
      solved: rootSolved,
      bestActions,
      simulations,
      evaluations: this.#evaluations,
      elapsedMs,
    };
  }

  /** Actions of the most visited children passing `eligible`, ties broken by higher mean value. */
  #mostVisited(first: number, end: number, eligible: (c: number) => boolean, out: number[]): void {
    let bestVisits = -1;
    let bestQ = Number.NEGATIVE_INFINITY;
    for (let c = first; c < end; c++) {
      if (!eligible(c)) continue;
      const n = this.#visits[c] as number;
      const q = this.#meanValue(c);
      if (n > bestVisits || (n === bestVisits && q > bestQ)) {
        bestVisits = n;
        bestQ = q;
        out.length = 0;
      }
      if (n === bestVisits && q === bestQ) out.push(this.#action[c] as number);
    }
  }
}

/** A Gamma(alpha, 1) sample (Marsaglia and Tsang; boosted for alpha < 1). */
function sampleGamma(alpha: number, rng: Random): number {
  if (alpha < 1) return sampleGamma(alpha + 1, rng) * (1 - rng.next()) ** (1 / alpha);
  const d = alpha - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = rng.normal();
    const v = (1 + c * x) ** 3;
    if (v <= 0) continue;
    const u = 1 - rng.next();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}
