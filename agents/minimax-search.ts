import { core, maskActions, type RuleCode, type Rules, ruleCode, sameRules } from '../env/index.ts';
import {
  BOUND_EXACT,
  BOUND_LOWER,
  BOUND_UPPER,
  type Bound,
  TranspositionTable,
} from './transposition.ts';

const { ACTIONS, STATE_SIZE, STORE_0, TO_MOVE, expand, finalScores, hasWinningStore, legalMask } =
  core;

/**
 * Scores of finished games: a win is worth WIN plus the final margin, minus the
 * plies it takes (so faster wins and slower losses are preferred); any win beats
 * any evaluation of an unfinished game, whose values stay within +-48.
 */
export const WIN = 100_000;
/** Values beyond this are finished games. */
export const PROVEN = WIN / 2;
/** Deepest search (plies); games from the start rarely last longer. */
export const MAX_PLY = 64;
const INFINITY = 1_000_000;
/**
 * Nodes this close to the horizon skip the table: their subtrees are cheaper to
 * search again than to hash and look up (measured: bench/agents.bench.ts).
 */
const TT_MIN_DEPTH = 2;
export const DEFAULT_TT_BITS = 18;
/** Nodes between two looks at the clock in timed searches (fewer with a costly leaf evaluator). */
const CLOCK_INTERVAL = 1024;
const CLOCK_INTERVAL_WITH_EVALUATOR = 16;

/**
 * A replacement for the store difference at the horizon (e.g. a value network).
 * Given an unfinished state, it returns its value for the player to move in
 * seeds (store-difference units), within +-PROVEN / 2. The search's window
 * `[alpha, beta]` is passed so that an evaluator may skip costly work whose
 * result cannot fall inside it (any value <= alpha or >= beta cuts off alike).
 */
export interface LeafEvaluator {
  evaluate(state: Uint8Array, alpha: number, beta: number): number;
}

export interface SearchOptions {
  readonly rules: Rules;
  /** The horizon's evaluation; default the store difference. */
  readonly leaf?: LeafEvaluator;
  /**
   * log2 of the transposition table's entries; 0 disables it. The default, 18
   * (3 MB), searched depth 16 faster than 16 or 20 bits (bench/agents.bench.ts).
   */
  readonly ttBits?: number;
}

/** Stop after `depth` plies, or when `timeMs` has passed (at least one ply is always searched). */
export interface SearchLimits {
  readonly depth?: number;
  readonly timeMs?: number;
}

export interface SearchResult {
  /** Value of the best root action from the mover's side at the deepest completed depth. */
  readonly value: number;
  /** The deepest completed iteration (0 if the position has a single legal action). */
  readonly depth: number;
  /** Every root action whose value equals `value` exactly. */
  readonly bestActions: readonly number[];
  /** Each legal root action's value at `depth`: exact for the best ones, an upper bound for the others. */
  readonly rootValues: ReadonlyMap<number, number>;
  readonly nodes: number;
  readonly elapsedMs: number;
}

/**
 * Negamax with alpha-beta pruning, iterative deepening and a transposition table,
 * on the engine's fast path. Each ply has preallocated buffers for its children
 * (`core.expand` plays all six actions at once), so a node allocates nothing.
 *
 * Values are from the side to move: the store difference at the horizon, the
 * exact result (see WIN) when the game is over. The transposition table only
 * cuts off on entries searched to exactly the depth asked, so the value of a
 * search is a function of the position and the depth alone: the table speeds
 * the search up (move ordering, transpositions) without changing its result.
 */
export class MinimaxSearch {
  #rules: Rules;
  #ruleCode: RuleCode;
  readonly #tt: TranspositionTable | null;
  readonly #leafEvaluator: LeafEvaluator | null;
  /** children[ply] holds the six children of the node at `ply`; childViews[ply][a] is child a. */
  readonly #children: Uint8Array[] = [];
  readonly #childViews: Uint8Array[][] = [];
  readonly #status: Uint8Array[] = [];
  readonly #order = new Int8Array(MAX_PLY * ACTIONS);
  readonly #orderKey = new Int32Array(MAX_PLY * ACTIONS);
  readonly #root = new Uint8Array(STATE_SIZE);
  readonly #scores = new Int32Array(2);
  #nodes = 0;
  readonly #clockInterval: number;
  #deadline = Number.POSITIVE_INFINITY;
  #aborted = false;

  constructor(options: SearchOptions) {
    this.#rules = options.rules;
    this.#ruleCode = ruleCode(options.rules);
    const bits = options.ttBits ?? DEFAULT_TT_BITS;
    this.#tt = bits === 0 ? null : new TranspositionTable(bits);
    this.#leafEvaluator = options.leaf ?? null;
    this.#clockInterval =
      this.#leafEvaluator === null ? CLOCK_INTERVAL : CLOCK_INTERVAL_WITH_EVALUATOR;
    for (let ply = 0; ply <= MAX_PLY; ply++) {
      const children = new Uint8Array(ACTIONS * STATE_SIZE);
      this.#children.push(children);
      this.#childViews.push(
        Array.from({ length: ACTIONS }, (_, a) =>
          children.subarray(a * STATE_SIZE, (a + 1) * STATE_SIZE),
        ),
      );
      this.#status.push(new Uint8Array(ACTIONS));
    }
  }

  /** Forgets the transposition table (results never depend on it; only speed does). */
  clear(): void {
    this.#tt?.clear();
  }

  /** Switches rule options (clearing the table if they change). */
  useRules(rules: Rules): void {
    if (sameRules(rules, this.#rules)) return;
    this.#rules = rules;
    this.#ruleCode = ruleCode(rules);
    this.clear();
  }

  /**
   * Searches a state (see core.ts) that is not finished. With a depth limit the
   * result is deterministic; with a time limit it is that of the deepest
   * iteration completed in time, and the search also stops once the game's
   * result is proven.
   */
  search(state: Uint8Array, limits: SearchLimits): SearchResult {
    const maxDepth = Math.min(limits.depth ?? MAX_PLY, MAX_PLY);
    if (!Number.isInteger(maxDepth) || maxDepth < 1) {
      throw new RangeError(`search depth must be an integer in 1..${MAX_PLY}, got ${limits.depth}`);
    }
    const start = performance.now();
    this.#nodes = 0;
    this.#aborted = false;
    // The first iteration always completes, so that there is a move to play.
    this.#deadline = Number.POSITIVE_INFINITY;
    const root = this.#root;
    root.set(state.subarray(0, STATE_SIZE));
    const mask = expand(
      root,
      this.#ruleCode,
      this.#children[0] as Uint8Array,
      this.#status[0] as Uint8Array,
    );
    if (mask === 0) throw new RangeError('cannot search a finished game');

    const legal = maskActions(mask);
    let values = new Map<number, number>();
    let best = { value: 0, actions: legal, depth: 0 };
    if (legal.length > 1 || limits.timeMs === undefined) {
      // First iteration: captures first; later ones: best values of the last first.
      const mover = root[TO_MOVE] as number;
      const views = this.#childViews[0] as Uint8Array[];
      let order = [...legal].sort(
        (x, y) =>
          ((views[y] as Uint8Array)[STORE_0 + mover] as number) -
          ((views[x] as Uint8Array)[STORE_0 + mover] as number),
      );
      for (let depth = 1; depth <= maxDepth; depth++) {
        const iteration = this.#searchRoot(order, depth);
        if (limits.timeMs !== undefined) this.#deadline = start + limits.timeMs;
        if (iteration === null) break;
        values = iteration.values;
        best = { value: iteration.value, actions: iteration.actions, depth };
        order = [...order].sort((x, y) => (values.get(y) as number) - (values.get(x) as number));
        if (limits.timeMs !== undefined && Math.abs(iteration.value) > PROVEN) break;
      }
    }
    return {
      value: best.value,
      depth: best.depth,
      bestActions: best.actions,
      rootValues: values,
      nodes: this.#nodes,
      elapsedMs: performance.now() - start,
    };
  }

  /**
   * One root iteration. Each action is searched with alpha one below the best
   * value so far, so every action that ties the best gets its exact value and
   * joins `actions` (the agent picks among them at random). Null if time ran out.
   */
  #searchRoot(
    order: readonly number[],
    depth: number,
  ): { value: number; actions: number[]; values: Map<number, number> } | null {
    const views = this.#childViews[0] as Uint8Array[];
    const values = new Map<number, number>();
    let best = -INFINITY;
    let actions: number[] = [];
    for (const action of order) {
      const alpha = best === -INFINITY ? -INFINITY : best - 1;
      const value = -this.#negamax(views[action] as Uint8Array, 1, depth - 1, -INFINITY, -alpha);
      if (this.#aborted) return null;
      values.set(action, value);
      if (value > best) {
        best = value;
        actions = [action];
      } else if (value === best) {
        actions.push(action);
      }
    }
    if (this.#tt !== null) {
      this.#tt.hash(this.#root);
      this.#tt.store(
        this.#tt.hashLow,
        this.#tt.hashHigh,
        depth,
        BOUND_EXACT,
        best,
        actions[0] as number,
      );
    }
    return { value: best, actions, values };
  }

  #negamax(s: Uint8Array, ply: number, depth: number, alpha: number, beta: number): number {
    if (++this.#nodes % this.#clockInterval === 0 && performance.now() > this.#deadline) {
      this.#aborted = true;
    }
    if (this.#aborted) return 0;
    if (depth === 0 || ply >= MAX_PLY) return this.#leaf(s, ply, alpha, beta);

    const tt = this.#tt;
    let hashLow = 0;
    let hashHigh = 0;
    let ttMove = -1;
    if (tt !== null && depth >= TT_MIN_DEPTH) {
      tt.hash(s);
      hashLow = tt.hashLow;
      hashHigh = tt.hashHigh;
      const slot = tt.probe(hashLow, hashHigh);
      if (slot >= 0) {
        if (tt.depth[slot] === depth) {
          const value = fromTable(tt.value[slot] as number, ply);
          const bound = tt.bound[slot];
          if (
            bound === BOUND_EXACT ||
            (bound === BOUND_LOWER && value >= beta) ||
            (bound === BOUND_UPPER && value <= alpha)
          ) {
            return value;
          }
        }
        ttMove = tt.move[slot] as number;
      }
    }

    const views = this.#childViews[ply] as Uint8Array[];
    const mask = expand(
      s,
      this.#ruleCode,
      this.#children[ply] as Uint8Array,
      this.#status[ply] as Uint8Array,
    );
    if (mask === 0) return this.#finished(s, ply);

    // Move ordering: the table's move, then by seeds captured (insertion sort of <= 6).
    const order = this.#order;
    const keys = this.#orderKey;
    const base = ply * ACTIONS;
    const storeIndex = STORE_0 + (s[TO_MOVE] as number);
    const before = s[storeIndex] as number;
    let n = 0;
    for (let a = 0; a < ACTIONS; a++) {
      if ((mask & (1 << a)) === 0) continue;
      const key = a === ttMove ? 1000 : ((views[a] as Uint8Array)[storeIndex] as number) - before;
      let i = base + n;
      while (i > base && (keys[i - 1] as number) < key) {
        keys[i] = keys[i - 1] as number;
        order[i] = order[i - 1] as number;
        i--;
      }
      keys[i] = key;
      order[i] = a;
      n++;
    }

    const alphaIn = alpha;
    let best = -INFINITY;
    let bestMove = -1;
    for (let i = base; i < base + n; i++) {
      const a = order[i] as number;
      const value = -this.#negamax(views[a] as Uint8Array, ply + 1, depth - 1, -beta, -alpha);
      if (this.#aborted) return 0;
      if (value > best) {
        best = value;
        bestMove = a;
        if (value > alpha) {
          alpha = value;
          if (value >= beta) break;
        }
      }
    }
    if (tt !== null && depth >= TT_MIN_DEPTH) {
      const bound: Bound = best <= alphaIn ? BOUND_UPPER : best >= beta ? BOUND_LOWER : BOUND_EXACT;
      tt.store(hashLow, hashHigh, depth, bound, toTable(best, ply), bestMove);
    }
    return best;
  }

  /**
   * A horizon node: its exact value if the game is over, else the store
   * difference. Whether the mover has a legal move is only worked out (by
   * playing) when it might not: own row empty, or the opponent's row empty (the
   * feeding rule); a position where every move is an endless relay is left to
   * the next deeper search.
   */
  #leaf(s: Uint8Array, ply: number, alpha: number, beta: number): number {
    if (hasWinningStore(s)) return this.#finished(s, ply);
    const mover = s[TO_MOVE] as number;
    const own = mover * 6;
    const opp = 6 - own;
    let ownSeeds = 0;
    let oppSeeds = 0;
    for (let i = 0; i < 6; i++) {
      ownSeeds += s[own + i] as number;
      oppSeeds += s[opp + i] as number;
    }
    if (ownSeeds === 0) return this.#finished(s, ply);
    if (oppSeeds === 0 && legalMask(s, this.#ruleCode) === 0) return this.#finished(s, ply);
    if (this.#leafEvaluator !== null) return this.#leafEvaluator.evaluate(s, alpha, beta);
    return (s[STORE_0 + mover] as number) - (s[STORE_0 + 1 - mover] as number);
  }

  /** The exact value of a finished game at `ply` for the player to move. */
  #finished(s: Uint8Array, ply: number): number {
    const scores = this.#scores;
    finalScores(s, 0, this.#ruleCode, scores);
    const mover = s[TO_MOVE] as number;
    const margin = (scores[mover] as number) - (scores[1 - mover] as number);
    if (margin > 0) return WIN - ply + margin;
    if (margin < 0) return -WIN + ply + margin;
    return 0;
  }
}

// Finished-game values count plies from the root; the table stores them counted
// from the node, so that an entry is valid wherever the position recurs.
function toTable(value: number, ply: number): number {
  return value > PROVEN ? value + ply : value < -PROVEN ? value - ply : value;
}

function fromTable(value: number, ply: number): number {
  return value > PROVEN ? value - ply : value < -PROVEN ? value + ply : value;
}
