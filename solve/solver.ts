import { core, type Rules, sameRules } from '../env/index.ts';
import { hiOf, loOf, pack } from './bounds.ts';
import type { EndgameValues } from './endgame/build.ts';
import { type Budget, MAX_DEPTH, ProofSearch } from './search.ts';
import { DEFAULT_TABLE_BITS, ProofTable } from './table.ts';

const { ACTIONS, STATE_SIZE, STORE_0, TO_MOVE } = core;

/**
 * The iterations' depths: 1, 3, 5, 7, 9, 11, 13, 16, 20, 25, ... up to the
 * deepest allowed, which is always searched last. Deepening
 * one ply at a time searched a third more nodes on positions from real games:
 * with the endgame table most lines end long before the depth limit, so an
 * iteration a few plies too deep costs little, while each iteration repeats
 * the work of the last.
 */
function nextDepth(depth: number): number {
  return depth + Math.max(2, depth >> 2);
}

/** What to solve within a budget (see Solver.solveState). */
export interface SolveLimits extends Budget {
  /**
   * true (default): the value of every legal action. false: the position's
   * value and one action that keeps it, which is cheaper (a won position needs
   * only one winning line searched to the end).
   */
  readonly moves?: boolean;
  /** Deepest iteration, in plies (default and at most MAX_DEPTH). */
  readonly maxDepth?: number;
}

/** A solve's result on the fast path: values -1 (loss), 0 (draw), 1 (win) for the player to move. */
export interface StateSolution {
  /** Proven bounds on the position's value: exact where `lo === hi`. */
  readonly lo: number;
  readonly hi: number;
  /** The legal actions (bit a for action a); 0 when the game is over. */
  readonly legalMask: number;
  /**
   * Per action 0..5, proven bounds on the mover's value after playing it
   * (-1..1; both 0 for an illegal action). With `moves: false` only what the
   * table knows of each child.
   */
  readonly moveLo: Int8Array;
  readonly moveHi: Int8Array;
  /**
   * Per action 0..5, with `moves`: the iteration (plies) at which that
   * action's value was settled (0 while it is open, and for an illegal
   * action); its proof depth, which the opening book keeps for tie-breaks.
   */
  readonly moveDepth: Uint8Array;
  /** Bit mask of the actions proven to keep the position's value (0 while it is unknown). */
  readonly bestMask: number;
  /**
   * The proof depth: the iteration (plies) at which everything asked was
   * settled; while something is open, the deepest iteration completed.
   */
  readonly depth: number;
  readonly nodes: number;
  readonly elapsedMs: number;
  /** Everything asked is exact (the position's value, and with `moves` every action's). */
  readonly complete: boolean;
  /** The budget ran out (else, if not complete, the deepest iteration left something open). */
  readonly budgetSpent: boolean;
}

export interface SolverOptions {
  /** Resolved rules (see env's resolveRules). */
  readonly rules: Rules;
  /** A table to use (and share between solvers of the same rules); else a new one of `tableBits`. */
  readonly table?: ProofTable;
  /** log2 of the table's entries when it makes its own (default 20: 1M entries, 32 MB). */
  readonly tableBits?: number;
  /** Values of every small board (endgame/build.ts), built for the same rules; none by default. */
  readonly endgame?: EndgameValues | null;
}

/**
 * The exact solver's fast entry: engine states in (core's 16-byte Uint8Array),
 * small typed results out, one transposition table kept across calls. Every
 * fact in the table is proven, so it stays valid from one position to the next
 * (of the same rules): a caller solving many positions (a benchmark, a search
 * agent at every move, a worker with a shard of positions) keeps one Solver
 * and gets faster as the table fills.
 *
 * Iterative deepening: depth 1, 2, ... until everything asked is exact, the
 * budget is spent or MAX_DEPTH is reached. The result holds what was proven,
 * also from an iteration cut short by the budget.
 */
export class Solver {
  readonly rules: Rules;
  readonly table: ProofTable;
  readonly #search: ProofSearch;
  readonly #root = new Uint8Array(STATE_SIZE);

  constructor(options: SolverOptions) {
    this.rules = options.rules;
    this.table = options.table ?? new ProofTable(options.tableBits ?? DEFAULT_TABLE_BITS);
    const endgame = options.endgame ?? null;
    if (endgame !== null && !sameRules(endgame.rules, options.rules)) {
      throw new RangeError('the endgame table was built for other rules');
    }
    this.#search = new ProofSearch(options.rules, this.table, endgame);
  }

  /**
   * Solves the state (not changed) within the budget. A finished game comes
   * back exact at depth 0. Throws a RangeError for a state of the wrong size.
   */
  solveState(state: Uint8Array, limits: SolveLimits = {}): StateSolution {
    if (state.length < STATE_SIZE - 1) {
      throw new RangeError(`a state has ${STATE_SIZE} bytes, got ${state.length}`);
    }
    const started = performance.now();
    const search = this.#search;
    const maxDepth = Math.min(limits.maxDepth ?? MAX_DEPTH, MAX_DEPTH);
    search.begin(limits);
    this.#root.set(state.subarray(0, STATE_SIZE - 1));
    search.setRoot(this.#root);
    const moveLo = new Int8Array(ACTIONS);
    const moveHi = new Int8Array(ACTIONS);
    const moveDepth = new Uint8Array(ACTIONS);
    const mask = search.expandRoot();
    if (mask === 0) {
      // Over: the search scores a finished game at once, at any depth.
      const value = search.finishedValue(0);
      return this.#result(started, value, value, 0, moveLo, moveHi, moveDepth, 0, true, false);
    }
    for (let a = 0; a < ACTIONS; a++) {
      if ((mask & (1 << a)) === 0) continue;
      moveLo[a] = -1;
      moveHi[a] = 1;
    }
    let lo = -1;
    let hi = 1;
    let depth = 0;
    const moves = limits.moves ?? true;
    for (let d = Math.min(1, maxDepth); d > depth; d = Math.min(nextDepth(d), maxDepth)) {
      let open = false;
      if (moves) {
        for (let a = 0; a < ACTIONS && !search.aborted; a++) {
          if ((mask & (1 << a)) === 0 || moveLo[a] === moveHi[a]) continue;
          const child = ProofSearch.child(a);
          this.#tighten(this.#settle(child, 1, d - 1, search.known(child)), a, moveLo, moveHi);
          if (moveLo[a] !== moveHi[a]) open = true;
          else moveDepth[a] = d;
        }
      } else {
        const r = this.#settle(0, 0, d, pack(lo, hi));
        lo = loOf(r);
        hi = hiOf(r);
        open = lo !== hi;
      }
      if (search.aborted) break;
      depth = d;
      if (!open) break;
    }
    if (moves) {
      // The mover picks the action: the position is worth the best of them.
      hi = -1;
      for (let a = 0; a < ACTIONS; a++) {
        if ((mask & (1 << a)) === 0) continue;
        if ((moveLo[a] as number) > lo) lo = moveLo[a] as number;
        if ((moveHi[a] as number) > hi) hi = moveHi[a] as number;
      }
    } else {
      for (let a = 0; a < ACTIONS; a++) {
        if ((mask & (1 << a)) !== 0)
          this.#tighten(search.known(ProofSearch.child(a)), a, moveLo, moveHi);
      }
    }
    let complete = lo === hi;
    for (let a = 0; a < ACTIONS && (limits.moves ?? true); a++) {
      if (moveLo[a] !== moveHi[a]) complete = false;
    }
    return this.#result(started, lo, hi, mask, moveLo, moveHi, moveDepth, depth, complete, moves);
  }

  /** Forgets the table (results never depend on it, only speed does). */
  clear(): void {
    this.table.clear();
  }

  /**
   * Asks the open questions about a node, at one depth, one threshold at a
   * time: the sign first ("at least a draw?" when the mover is behind in the
   * stores, "a win?" when ahead, the likelier proof first), the other
   * threshold only once that one is settled. Few games are drawn, so the
   * first threshold usually settles the value and each depth costs two
   * searches, not four. Returns the node's packed bounds.
   */
  #settle(node: number, ply: number, depth: number, bounds: number): number {
    const search = this.#search;
    let lo = loOf(bounds);
    let hi = hiOf(bounds);
    const s = search.state(node);
    const mover = s[TO_MOVE] as number;
    const ahead = (s[STORE_0 + mover] as number) >= (s[STORE_0 + 1 - mover] as number);
    const first = ahead ? 1 : 0;
    for (let i = 0; i < 2; i++) {
      const t = i === 0 ? first : 1 - first;
      if (lo >= t || hi < t) continue;
      if (search.search(node, ply, t, ahead, depth)) {
        if (ahead) lo = t;
        else hi = t - 1;
      } else if (!search.aborted && search.search(node, ply, t, !ahead, depth)) {
        if (ahead) hi = t - 1;
        else lo = t;
      }
      if (search.aborted || (lo < t && hi >= t)) break;
    }
    return pack(lo, hi);
  }

  /** A child's bounds (its mover's view) as bounds on the root mover's value of action `a`. */
  #tighten(childBounds: number, a: number, moveLo: Int8Array, moveHi: Int8Array): void {
    const lo = -hiOf(childBounds);
    const hi = -loOf(childBounds);
    if (lo > (moveLo[a] as number)) moveLo[a] = lo;
    if (hi < (moveHi[a] as number)) moveHi[a] = hi;
  }

  #result(
    started: number,
    lo: number,
    hi: number,
    mask: number,
    moveLo: Int8Array,
    moveHi: Int8Array,
    moveDepth: Uint8Array,
    depth: number,
    complete: boolean,
    moves: boolean,
  ): StateSolution {
    let bestMask = 0;
    if (lo === hi && mask !== 0) {
      // A lost position: every action keeps the value (there is none worse).
      if (lo === -1) bestMask = mask;
      for (let a = 0; a < ACTIONS; a++) {
        if ((mask & (1 << a)) !== 0 && moveLo[a] === lo) bestMask |= 1 << a;
      }
      // Solving the position alone: the action the proof of its value went through.
      const proof = this.#search.rootProof;
      if (!moves && proof >= 0 && this.#search.rootProofThreshold === lo) {
        bestMask |= 1 << proof;
        moveLo[proof] = lo;
      }
    }
    if (!moves) {
      // No action is worth more than the position.
      for (let a = 0; a < ACTIONS; a++) {
        if ((mask & (1 << a)) !== 0 && (moveHi[a] as number) > hi) moveHi[a] = hi;
      }
    }
    return {
      lo,
      hi,
      legalMask: mask,
      moveLo,
      moveHi,
      moveDepth,
      bestMask,
      depth,
      nodes: this.#search.nodes,
      elapsedMs: performance.now() - started,
      complete,
      budgetSpent: this.#search.aborted,
    };
  }
}
