import {
  core,
  formatRules,
  type Position,
  type Random,
  type Rules,
  ruleCode,
  rulesKey,
  sameRules,
} from '../env/index.ts';
import type { BookMove, OpeningBook } from '../solve/book/book.ts';
import { BOOK_TABLE_BITS } from '../solve/book/format.ts';
import { type EndgameValues, Solver, type StateSolution } from '../solve/index.ts';
import type { Agent, AgentContext } from './agent.ts';
import { checkOwnRules } from './solving-agent.ts';
import { MAX_MOVE_MS } from './spec-options.ts';

const { ACTIONS, STATE_SIZE, STORE_0, STORE_1, TOTAL_SEEDS, expand, legalMask } = core;

/** A fresh table for the won positions the endgame table answers (their proofs need depths). */
const WIN_TABLE_BITS = 16;

export interface PerfectAgentOptions {
  readonly name: string;
  readonly rules: Rules;
  /** The opening book under `rules` (null: none, the solver answers from the start). */
  readonly book: OpeningBook | null;
  /** The endgame table under `rules` the solver reads (null: none). */
  readonly endgame: EndgameValues | null;
  /** The longest it thinks about a move (default and at most MAX_MOVE_MS, docs/reliability.md). */
  readonly moveCapMs?: number;
}

/** One legal move as the perfect player weighs it: bounds on its value for the mover, and its proof depth. */
export type WeighedMove = BookMove;

/** A move of the perfect player and why. */
export interface PerfectChoice {
  readonly action: number;
  /** Where the values came from. */
  readonly source: 'book' | 'solver';
  /** The position's value for the mover (-1, 0, 1), or null where it hangs on endless play. */
  readonly value: number | null;
  /** The moves it chose among (all as good; the game's generator picked one). */
  readonly candidates: readonly number[];
}

/** What the perfect player did, since it was made (its time per move for reports and benchmarks). */
export interface PerfectStats {
  readonly moves: number;
  readonly fromBook: number;
  readonly solved: number;
  /** Milliseconds spent choosing moves, all told. */
  readonly ms: number;
}

/**
 * The perfect player: every move from exact values, the opening book's
 * where the position is in it, else the solver's (with the endgame table)
 * with no budget, so that it never plays a value-losing move. Among the
 * moves that keep the value (docs/agents.md, "perfect"):
 *
 * - won: the shortest proof (the smallest proof depth; below the endgame
 *   table's seeds, a fresh proof without it, whose moves all make progress,
 *   so that a game that can go round is still won);
 * - lost: the longest proof (the largest proof depth: the opponent has the
 *   most to find);
 * - drawn: the draw after which the opponent has the fewest moves that keep
 *   the draw (the most replies that lose for them);
 * - where the value hangs on endless play: the moves with the best proven
 *   bounds (lower first, then upper), so it never leaves a cycle for a loss.
 *
 * Ties go to the game's seeded generator.
 */
export class PerfectAgent implements Agent {
  readonly name: string;
  readonly #rules: Rules;
  readonly #code: number;
  readonly #book: OpeningBook | null;
  readonly #solver: Solver;
  readonly #winSolver: Solver;
  readonly #endgameSeeds: number;
  readonly #children = new Uint8Array(ACTIONS * STATE_SIZE);
  readonly #status = new Uint8Array(ACTIONS);
  #stats = { moves: 0, fromBook: 0, solved: 0, ms: 0 };
  #deadline = Number.POSITIVE_INFINITY;
  readonly #moveCapMs: number;

  constructor(options: PerfectAgentOptions) {
    this.name = options.name;
    this.#rules = options.rules;
    this.#code = ruleCode(options.rules);
    if (options.book !== null && !sameRules(options.book.rules, options.rules)) {
      throw new RangeError(
        `the opening book is of ${formatRules(options.book.rules)}, not ${formatRules(options.rules)}`,
      );
    }
    this.#book = options.book;
    this.#moveCapMs = Math.min(options.moveCapMs ?? MAX_MOVE_MS, MAX_MOVE_MS);
    this.#solver = new Solver({
      rules: options.rules,
      // Cleared for each move, as the book's leaves were solved: a proof depth means the same in and out of it.
      tableBits: options.book?.settings.tableBits ?? BOOK_TABLE_BITS,
      endgame: options.endgame,
    });
    this.#winSolver = new Solver({ rules: options.rules, tableBits: WIN_TABLE_BITS });
    this.#endgameSeeds = options.endgame?.maxSeeds ?? -1;
  }

  get stats(): PerfectStats {
    return { ...this.#stats };
  }

  /** Mean milliseconds per move it chose (NaN before its first). */
  get msPerMove(): number {
    return this.#stats.ms / this.#stats.moves;
  }

  act(position: Position, ctx: AgentContext): number {
    if (ctx.legal.length === 1) return ctx.legal[0] as number;
    const started = performance.now();
    const choice = this.choose(position, ctx.rules, ctx.rng);
    const stats = this.#stats;
    stats.moves++;
    if (choice.source === 'book') stats.fromBook++;
    else stats.solved++;
    stats.ms += performance.now() - started;
    return choice.action;
  }

  /** Its move in an unfinished position under `rules` (its own: others throw), ties drawn from `rng`. */
  choose(position: Position, rules: Rules, rng: Random): PerfectChoice {
    checkOwnRules(this.name, this.#rules, rules, 'its book and tables');
    this.#deadline = performance.now() + this.#moveCapMs;
    const state = position.stateView;
    const entry = this.#book?.lookup(state);
    if (entry?.moves.every((m) => m.lo === m.hi)) {
      return { source: 'book', ...this.#pick(state, entry.moves, rng) };
    }
    return { source: 'solver', ...this.#pick(state, this.#solvedMoves(state), rng) };
  }

  /**
   * What is left of the move's time (docs/reliability.md: an agent thinks at
   * most MAX_MOVE_MS a move). Where the cap cuts a solve short, the moves'
   * proven bounds decide, as where endless play decides.
   */
  #timeLeft(): { timeMs: number } {
    return { timeMs: Math.max(1, this.#deadline - performance.now()) };
  }

  /** Every legal move's value and proof depth, from a fresh solve with no budget but the move's cap. */
  #solvedMoves(state: Uint8Array): WeighedMove[] {
    this.#solver.clear();
    return weighed(this.#solver.solveState(state, { moves: true, ...this.#timeLeft() }));
  }

  #pick(
    state: Uint8Array,
    moves: readonly WeighedMove[],
    rng: Random,
  ): { action: number; value: number | null; candidates: number[] } {
    let lo = -1;
    let hi = -1;
    for (const m of moves) {
      if (m.lo > lo) lo = m.lo;
      if (m.hi > hi) hi = m.hi;
    }
    const keeping = moves.filter((m) => m.lo === lo);
    // Exact where the best a move can be is proven to be had.
    const value = lo === hi ? lo : null;
    let candidates: number[];
    if (value === null) {
      // Endless play decides: the best upper bound among the best lower ones.
      let best = -1;
      for (const m of keeping) if (m.hi > best) best = m.hi;
      candidates = keeping.filter((m) => m.hi === best).map((m) => m.action);
    } else {
      if (value === 1) candidates = this.#shortestWins(state, keeping);
      else if (value === -1) candidates = extremes(keeping, (m) => m.depth, 'max');
      else candidates = this.#liveliestDraws(state, keeping);
    }
    const action = candidates.length === 1 ? (candidates[0] as number) : rng.pick(candidates);
    return { action, value, candidates };
  }

  /**
   * The winning moves of the shortest proof. Below the endgame table's seeds
   * its answers carry no depth, so a fresh proof without it names them.
   */
  #shortestWins(state: Uint8Array, wins: readonly WeighedMove[]): number[] {
    const seeds = TOTAL_SEEDS - (state[STORE_0] as number) - (state[STORE_1] as number);
    if (seeds > this.#endgameSeeds) return extremes(wins, (m) => m.depth, 'min');
    this.#winSolver.clear();
    const fresh = this.#winSolver.solveState(state, { moves: false, ...this.#timeLeft() });
    const proof = wins.filter((m) => (fresh.bestMask & (1 << m.action)) !== 0);
    return proof.length > 0 ? proof.map((m) => m.action) : wins.map((m) => m.action);
  }

  /** The drawing moves after which the opponent has the most replies that lose. */
  #liveliestDraws(state: Uint8Array, draws: readonly WeighedMove[]): number[] {
    if (draws.length === 1) return [(draws[0] as WeighedMove).action];
    const children = this.#children;
    expand(state, this.#code, children, this.#status);
    const chances = (m: WeighedMove): number => {
      const child = children.subarray(m.action * STATE_SIZE, (m.action + 1) * STATE_SIZE);
      if (legalMask(child, this.#code) === 0) return 0;
      const replies =
        this.#book?.lookup(child)?.moves ??
        weighed(this.#solver.solveState(child, { moves: true, ...this.#timeLeft() }));
      return replies.filter((r) => r.hi === -1).length;
    };
    return extremes(draws, chances, 'max');
  }

  newGame(): void {
    // Each move starts from a cleared table: nothing carries over.
  }
}

/** What a perfect player under some rules reads: the opening book and the endgame table (null: none). */
export type PerfectSources = (rules: Rules) => Pick<PerfectAgentOptions, 'book' | 'endgame'>;

/**
 * One perfect player a rule set, made on first use from what `sources` gives
 * for those rules, so that a service or a worker answering games under
 * several rule sets keeps each player's solver tables.
 */
export class PerfectPlayers {
  readonly #players = new Map<string, PerfectAgent>();

  constructor(
    readonly name: string,
    readonly sources: PerfectSources,
  ) {}

  for(rules: Rules): PerfectAgent {
    const key = rulesKey(rules);
    let player = this.#players.get(key);
    if (player === undefined) {
      player = new PerfectAgent({ name: this.name, rules, ...this.sources(rules) });
      this.#players.set(key, player);
    }
    return player;
  }
}

/** A solution's legal moves as WeighedMoves. */
function weighed(solution: StateSolution): WeighedMove[] {
  const moves: WeighedMove[] = [];
  for (let a = 0; a < ACTIONS; a++) {
    if ((solution.legalMask & (1 << a)) === 0) continue;
    moves.push({
      action: a,
      lo: solution.moveLo[a] as number,
      hi: solution.moveHi[a] as number,
      depth: solution.moveDepth[a] as number,
    });
  }
  return moves;
}

/** The actions of the moves whose score is the smallest or largest, ascending. */
function extremes(
  moves: readonly WeighedMove[],
  score: (m: WeighedMove) => number,
  which: 'min' | 'max',
): number[] {
  const scores = moves.map(score);
  const target = which === 'min' ? Math.min(...scores) : Math.max(...scores);
  return moves.filter((_, i) => scores[i] === target).map((m) => m.action);
}
