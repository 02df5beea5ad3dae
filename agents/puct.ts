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
   * they starve every other move of visits (shared/CALIBRATION.md).
   */
  readonly priorWeight?: number;
  /** Dirichlet noise on the root priors (self-play only); none unless given. */
  readonly rootNoise?: { readonly alpha: number; readonly fraction: number };
}

/** Stop after `simulations` simulations, or when `timeMs` has passed (at least one runs). */
export interface PuctLimits {
  readonly simulations?: number;
  readonly timeMs?: number;
}

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
/** Nodes of a finished game are exact; +1 is the best any value can be. */
const WIN_VALUE = 1;

/**
 * PUCT Monte Carlo tree search (AlphaZero's selection rule) with a pluggable
 * leaf evaluator and no random playouts. Details that pay in this game
 * (shared/CALIBRATION.md):
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

  readonly #children = new Uint8Array(ACTIONS * STATE_SIZE);
  readonly #status = new Uint8Array(ACTIONS);
  readonly #priors = new Float32Array(ACTIONS);
  readonly #scores = new Int32Array(2);
  #evaluations = 0;

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
   */
  search(state: Uint8Array, limits: PuctLimits, rng: Random | null = null): PuctResult {
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
    this.#evaluations = 0;
    this.#size = 0;
    const root = this.#addNode(-1, -1, 0);
    this.#states.set(state.subarray(0, STATE_SIZE), 0);

    let done = 0;
    // The first simulation expands the root.
    this.#simulate();
    done++;
    if (this.#childCount[root] === 0) throw new RangeError('cannot search a finished game');
    if (this.#rootNoise !== null && rng !== null) this.#addRootNoise(rng);
    while (done < maxSimulations && this.#solved[root] === 0) {
      if (timeMs !== undefined && performance.now() >= deadline) break;
      this.#simulate();
      done++;
    }
    return this.#result(done, performance.now() - start);
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
    return node;
  }

  /** One simulation: select down to an unexpanded or solved node, evaluate it, back up. */
  #simulate(): void {
    let node = 0;
    while ((this.#firstChild[node] as number) >= 0 && this.#solved[node] === 0) {
      node = this.#select(node);
    }
    const value = this.#solved[node] === 1 ? (this.#exact[node] as number) : this.#expand(node);
    this.#backUp(node, value);
  }

  /**
   * Expands a leaf: plays its children, asks the evaluator, and returns the
   * leaf's value for the player who moved into it (exact if the game is over).
   */
  #expand(node: number): number {
    const states = this.#states;
    const stateOffset = node * STATE_SIZE;
    const state = states.subarray(stateOffset, stateOffset + STATE_SIZE);
    const mask = expand(state, this.#captureSeedStays, this.#children, this.#status);
    if (mask === 0) {
      const scores = this.#scores;
      finalScores(state, 0, this.#leftoverToOwner, scores);
      // The player who moved into a finished node is the one not to move there.
      const mover = 1 - (state[TO_MOVE] as number);
      const margin = (scores[mover] as number) - (scores[1 - mover] as number);
      const exact = margin > 0 ? WIN_VALUE : margin < 0 ? -WIN_VALUE : 0;
      this.#solved[node] = 1;
      this.#exact[node] = exact;
      return exact;
    }
    this.#evaluations++;
    const priors = this.#priors;
    const value = this.#evaluator.evaluate(state, mask, priors);
    const count = POPCOUNT[mask] as number;
    const weight = this.#priorWeight;
    const uniform = (1 - weight) / count;
    // Children are added after the evaluation: growing may replace `states`.
    const first = this.#size;
    for (let a = 0; a < ACTIONS; a++) {
      if ((mask & (1 << a)) === 0) continue;
      const child = this.#addNode(node, a, weight * (priors[a] as number) + uniform);
      this.#states.set(
        this.#children.subarray(a * STATE_SIZE, (a + 1) * STATE_SIZE),
        child * STATE_SIZE,
      );
    }
    this.#firstChild[node] = first;
    this.#childCount[node] = count;
    return -value;
  }

  /** The child maximising Q + c P sqrt(N) / (1 + n), Q from the parent's mover's side. */
  #select(node: number): number {
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
    const first = this.#firstChild[0] as number;
    const count = this.#childCount[0] as number;
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
    const first = this.#firstChild[0] as number;
    const end = first + (this.#childCount[0] as number);
    const rootSolved = this.#solved[0] === 1;
    let legalMask = 0;
    let total = 0;
    for (let c = first; c < end; c++) {
      const a = this.#action[c] as number;
      legalMask |= 1 << a;
      const n = this.#visits[c] as number;
      visits[a] = n;
      total += n;
      q[a] =
        this.#solved[c] === 1
          ? (this.#exact[c] as number)
          : n > 0
            ? (this.#valueSum[c] as number) / n
            : 0;
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
      ? -(this.#exact[0] as number)
      : -(this.#valueSum[0] as number) / (this.#visits[0] as number);
    return {
      visits,
      policy,
      q,
      legalMask,
      value: rootValue,
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
      const q =
        this.#solved[c] === 1
          ? (this.#exact[c] as number)
          : n > 0
            ? (this.#valueSum[c] as number) / n
            : 0;
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
