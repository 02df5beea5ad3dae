import { core, type RuleCode, type Rules, ruleCode } from '../env/index.ts';
import { OPEN, pack } from './bounds.ts';
import { type EndgameValues, NO_LOWER, NO_UPPER } from './endgame/build.ts';
import { MOVER_0_ORDER, MOVER_1_ORDER, rankBoard } from './endgame/rank.ts';
import { stateHash } from './hash.ts';
import { type ProofTable, question } from './table.ts';
import { signValue } from './value.ts';

const {
  ACTIONS,
  STATE_SIZE,
  STORE_0,
  TO_MOVE,
  TOTAL_SEEDS,
  WINNING_STORE,
  OK,
  expand,
  finalScores,
  playInPlace,
  rowIsEmpty,
} = core;

/** Deepest search, in plies (the table keeps depths in a byte). */
export const MAX_DEPTH = 250;
/** Nodes closer to the horizon skip the table (cheaper to search again than to look up). */
const TT_MIN_DEPTH = 2;
/** Nodes between two looks at the clock. */
const CLOCK_INTERVAL = 1024;
/** Bytes of one ply's children: six states. */
const REGION = ACTIONS * STATE_SIZE;
const WORDS_PER_STATE = STATE_SIZE / 4;
/** A store this full cannot lose (the other side holds at most 24): see `#search`. */
const ONE_SHORT = WINNING_STORE - 1;

/** A node and time budget; the search stops once either is spent. */
export interface Budget {
  readonly nodes?: number;
  /** Milliseconds. */
  readonly timeMs?: number;
  /** Called about every PROGRESS_MS during the search with the nodes and milliseconds so far. */
  readonly onProgress?: (nodes: number, elapsedMs: number) => void;
}

/** How often `onProgress` hears from a running search. */
export const PROGRESS_MS = 200;

/**
 * Depth-limited proof search over win/draw/loss. A question is "is the mover's
 * value at least t?" (t = 0: at least a draw; t = 1: a win), and a search
 * either proves it or disproves it, within a depth:
 *
 *   prove(s, t)    = some child c:  disprove(c, 1 - t)
 *   disprove(s, t) = every child c: prove(c, 1 - t)
 *
 * (the mover's value is at least t exactly when some action leaves the
 * opponent with less than 1 - t). A line cut at the depth limit fails
 * whichever side is trying to prove something there: scored against the
 * prover, as the two scorings of endless play in docs/solver.md. So a proof
 * only ever rests on lines that end under the rules, a success is a fact about
 * the game whatever depth found it, and a position whose value hangs on
 * endless play is never proven either way.
 *
 * Each search is boolean, so it prunes like alpha-beta at its bound: the
 * prover stops at its first success, the defender at its first refutation.
 *
 * The table (table.ts) keeps the proven bounds, and for each of the four
 * questions the deepest search that failed on it. The tree lives in one
 * buffer: node `n` is the state at bytes `16 n`; the children of a node at ply
 * p go to region p + 1 (nodes 6 (p + 1) .. +5), so `core.expand` writes them in
 * place and nothing is allocated per node.
 */
export class ProofSearch {
  readonly table: ProofTable;
  readonly #endgame: EndgameValues | null;
  /** Nodes visited since the last `begin`. */
  nodes = 0;
  /** True once the budget ran out; the search then unwinds at once. */
  aborted = false;
  /** The action of the last proof at the root (ply 0), and what it proved: the value is at least `rootProofThreshold`. */
  rootProof = -1;
  rootProofThreshold = -1;
  readonly #ruleCode: RuleCode;
  readonly #bytes: Uint8Array;
  readonly #words: Int32Array;
  readonly #views: Uint8Array[] = [];
  readonly #regions: Uint8Array[] = [];
  readonly #status = new Uint8Array(ACTIONS);
  readonly #scores = new Int32Array(2);
  #nodeLimit = Number.POSITIVE_INFINITY;
  #deadline = Number.POSITIVE_INFINITY;
  #nextCheck = 0;
  #started = 0;
  #onProgress: ((nodes: number, elapsedMs: number) => void) | null = null;
  #nextProgress = 0;

  constructor(rules: Rules, table: ProofTable, endgame: EndgameValues | null = null) {
    this.table = table;
    this.#endgame = endgame;
    this.#ruleCode = ruleCode(rules);
    const regions = MAX_DEPTH + 2;
    this.#bytes = new Uint8Array(regions * REGION);
    this.#words = new Int32Array(this.#bytes.buffer);
    for (let n = 0; n < regions * ACTIONS; n++) {
      this.#views.push(this.#bytes.subarray(n * STATE_SIZE, (n + 1) * STATE_SIZE));
    }
    for (let r = 0; r < regions; r++) {
      this.#regions.push(this.#bytes.subarray(r * REGION, (r + 1) * REGION));
    }
  }

  /** The node of ply 1 that action `a` of the root leads to (after `expandRoot`). */
  static child(action: number): number {
    return ACTIONS + action;
  }

  /** The state of node `n` (a view into the search's buffer). */
  state(node: number): Uint8Array {
    return this.#views[node] as Uint8Array;
  }

  /** Puts `state` at the root (node 0); its pad byte is cleared, as table keys include it. */
  setRoot(state: Uint8Array): void {
    const root = this.#views[0] as Uint8Array;
    root.set(state.subarray(0, STATE_SIZE - 1));
    root[STATE_SIZE - 1] = 0;
  }

  /** Plays every action of the root into ply 1; returns the legal mask (0: the game is over). */
  expandRoot(): number {
    return expand(
      this.#views[0] as Uint8Array,
      this.#ruleCode,
      this.#regions[1] as Uint8Array,
      this.#status,
    );
  }

  /** Starts counting nodes and time for a new budget. */
  begin(budget: Budget): void {
    this.nodes = 0;
    this.aborted = false;
    this.rootProof = -1;
    this.#nodeLimit = budget.nodes ?? Number.POSITIVE_INFINITY;
    this.#started = performance.now();
    this.#deadline =
      budget.timeMs === undefined ? Number.POSITIVE_INFINITY : this.#started + budget.timeMs;
    this.#nextCheck = Math.min(this.#nodeLimit, CLOCK_INTERVAL);
    this.#onProgress = budget.onProgress ?? null;
    this.#nextProgress = this.#started + PROGRESS_MS;
  }

  #checkBudget(): void {
    const now = performance.now();
    if (this.nodes >= this.#nodeLimit || now >= this.#deadline) {
      this.aborted = true;
      return;
    }
    this.#nextCheck = Math.min(this.#nodeLimit, this.nodes + CLOCK_INTERVAL);
    if (this.#onProgress !== null && now >= this.#nextProgress) {
      this.#nextProgress = now + PROGRESS_MS;
      this.#onProgress(this.nodes, now - this.#started);
    }
  }

  /** What the table knows of node `n` (packed bounds; OPEN if nothing). */
  known(node: number): number {
    const at = node * WORDS_PER_STATE;
    const slot = this.table.find(this.#words, at, stateHash(this.#words, at));
    return slot < 0 ? OPEN : pack(this.table.lo(slot), this.table.hi(slot));
  }

  /**
   * Tries to prove (`prove`) or to disprove that the mover's value at node
   * `node` (at `ply`; its children go to region ply + 1) is at least `t`,
   * within `depth` plies. True on success: then the table holds the new bound.
   */
  search(node: number, ply: number, t: number, prove: boolean, depth: number): boolean {
    const start = this.nodes;
    if (++this.nodes >= this.#nextCheck) this.#checkBudget();
    if (this.aborted) return false;
    const s = this.#views[node] as Uint8Array;
    const mover = s[TO_MOVE] as number;
    const own = s[STORE_0 + mover] as number;
    const opp = s[STORE_0 + 1 - mover] as number;
    if (own >= WINNING_STORE) return prove;
    if (opp >= WINNING_STORE) return !prove;
    // One seed short of 25, the other side can no longer lose: the mover
    // cannot win, and the opponent cannot make them lose, by ending the game.
    if (prove ? t === 1 && opp === ONE_SHORT : t === 0 && own === ONE_SHORT) return false;

    // The root (ply 0) is always expanded, so that a proof there names its action.
    const endgame = this.#endgame;
    const seeds = TOTAL_SEEDS - own - opp;
    if (endgame !== null && seeds <= endgame.maxSeeds && ply > 0) {
      // The board's margin bounds, from the mover's row; the stores add their difference.
      const i =
        (endgame.offsets[seeds] as number) +
        rankBoard(s, 0, mover === 0 ? MOVER_0_ORDER : MOVER_1_ORDER, seeds);
      const marginLo = endgame.lo[i] as number;
      const marginHi = endgame.hi[i] as number;
      const vlo = marginLo === NO_LOWER ? -1 : signValue(own - opp + marginLo);
      const vhi = marginHi === NO_UPPER ? 1 : signValue(own - opp + marginHi);
      if (vlo >= t) return prove;
      if (vhi < t) return !prove;
    }

    if (depth === 0 || ply >= MAX_DEPTH) {
      // The horizon; a mover with an empty row has no move, so that game is over.
      if (!rowIsEmpty(s, mover * 6)) return false;
      const v = this.#finished(s);
      return prove ? v >= t : v < t;
    }

    const table = this.table;
    const words = this.#words;
    const at = node * WORDS_PER_STATE;
    const hash = stateHash(words, at);
    const q = question(t, prove);
    let slot = depth >= TT_MIN_DEPTH ? table.find(words, at, hash) : -1;
    let tableMove = -1;
    if (slot >= 0) {
      const lo = table.lo(slot);
      const hi = table.hi(slot);
      if (ply > 0 && lo >= t) return prove;
      if (ply > 0 && hi < t) return !prove;
      if (table.failedDepth(slot, q) >= depth) return false;
      tableMove = table.move(slot);
    }

    // prove: stop at the first child disproven; disprove: at the first child not proven.
    const firstChild = (ply + 1) * ACTIONS;
    let decisive = -1;
    // The table's move alone first: it often decides, and then the other
    // moves are never played.
    if (tableMove >= 0 && this.#play(s, firstChild + tableMove, tableMove)) {
      if (this.search(firstChild + tableMove, ply + 1, 1 - t, !prove, depth - 1) === prove) {
        decisive = tableMove;
      }
    }
    if (decisive < 0 && !this.aborted) {
      const mask = expand(s, this.#ruleCode, this.#regions[ply + 1] as Uint8Array, this.#status);
      if (mask === 0) return this.#over(s, words, at, hash, t, prove);
      const storeIndex = STORE_0 + mover;
      let left = tableMove >= 0 ? mask & ~(1 << tableMove) : mask;
      while (left !== 0) {
        // Move ordering: the largest capture of the moves left (the lowest action on a tie).
        let a = -1;
        let most = -1;
        for (let m = left; m !== 0; m &= m - 1) {
          const b = 31 - Math.clz32(m & -m);
          const store = (this.#views[firstChild + b] as Uint8Array)[storeIndex] as number;
          if (store > most) {
            most = store;
            a = b;
          }
        }
        left &= ~(1 << a);
        if (this.search(firstChild + a, ply + 1, 1 - t, !prove, depth - 1) === prove) {
          decisive = a;
          break;
        }
        if (this.aborted) break;
      }
    }
    const proven = prove ? decisive >= 0 : decisive < 0 && !this.aborted;
    if (ply === 0 && proven && prove) {
      this.rootProof = decisive;
      this.rootProofThreshold = t;
    }
    const work = 31 - Math.clz32(this.nodes - start);
    if (depth < TT_MIN_DEPTH) return proven;
    if (proven) {
      slot = prove
        ? table.store(words, at, hash, t, 1, work)
        : table.store(words, at, hash, -1, t - 1, work);
      if (prove) table.setMove(slot, decisive);
      return true;
    }
    // A search cut short by the budget says nothing about the depth it was given.
    if (!this.aborted) {
      slot = table.store(words, at, hash, -1, 1, work);
      table.fail(slot, q, depth);
      // The defender's refutation is the mover's best try next time.
      if (decisive >= 0) table.setMove(slot, decisive);
    }
    return false;
  }

  /** Plays action `a` of state `s` into node `child`; false if it is illegal. */
  #play(s: Uint8Array, child: number, a: number): boolean {
    if (s[(s[TO_MOVE] as number) * 6 + a] === 0) return false;
    const view = this.#views[child] as Uint8Array;
    view.set(s);
    return playInPlace(view, a, this.#ruleCode) === OK;
  }

  /** A node whose mover has no legal move: the game is over; records and answers the question. */
  #over(
    s: Uint8Array,
    words: Int32Array,
    at: number,
    hash: number,
    t: number,
    prove: boolean,
  ): boolean {
    const v = this.#finished(s);
    this.table.store(words, at, hash, v, v, 0);
    return prove ? v >= t : v < t;
  }

  /** The value of node `n`, a finished game, for its player to move. */
  finishedValue(node: number): number {
    return this.#finished(this.#views[node] as Uint8Array);
  }

  /** The exact value of a finished game for its player to move. */
  #finished(s: Uint8Array): number {
    const scores = this.#scores;
    finalScores(s, 0, this.#ruleCode, scores);
    const mover = s[TO_MOVE] as number;
    return signValue((scores[mover] as number) - (scores[1 - mover] as number));
  }
}
