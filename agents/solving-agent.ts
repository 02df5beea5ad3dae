import { core, formatRules, type Position, type Rules, sameRules } from '../env/index.ts';
import { type EndgameValues, ProofTable, Solver } from '../solve/index.ts';
import type { Agent, AgentContext } from './agent.ts';

/**
 * Share of a move's time the exact solver gets first in a solver-backed
 * search (`minimax:t=50ms,solve=1`, `az:...,t=50ms,solve=1`); the search
 * gets the rest when the solver does not prove the position.
 */
export const SOLVE_SHARE = 0.5;

/**
 * Bits of the solver's table: 2^18 entries (8 MB), more than a move's
 * search fills at 50 ms, and cleared in a few milliseconds for each new game.
 */
const TABLE_BITS = 18;
/** 2^14 entries for the fresh proof of a won position's move: cleared every such move. */
const WIN_TABLE_BITS = 14;

export interface SolvingAgentOptions {
  readonly name: string;
  /** The rules it plays under (its solver's table and endgame table hold their values). */
  readonly rules: Rules;
  /** Milliseconds the solver may spend on a move before the search takes over. */
  readonly solveMs: number;
  /** Values of every small board for the solver to look up (solve's buildEndgame), for these rules. */
  readonly endgame?: EndgameValues | null;
}

/** What the solver proved of a position within its time. */
export interface ProvenPosition {
  /** The position's exact value for the player to move: 1 won, 0 drawn, -1 lost. */
  readonly value: number;
  /** The legal actions proven to keep that value, ascending (never empty). */
  readonly moves: readonly number[];
  /**
   * In a won position, the move of a fresh shallowest proof (progress toward
   * the end), when one is found in the time left; else null.
   */
  readonly progress: number | null;
}

/**
 * Throws a RangeError saying how to start `name` for `rules` where they are
 * not the rules it was made for (`own`): what it holds (`holding`: its
 * solver's tables, its book) has values under its own rules, which under
 * others would lie.
 */
export function checkOwnRules(name: string, own: Rules, rules: Rules, holding: string): void {
  if (sameRules(rules, own)) return;
  throw new RangeError(
    `${name} was made for ${formatRules(own)}, not this game's ${formatRules(rules)} (${holding} hold values under its own rules): start it with --rules ${formatRules(rules)} to play these rules`,
  );
}

/**
 * The solver side of a solver-backed search: proves a position's value within
 * its time and names the moves that keep it. Its table holds proven facts
 * only, so it may be kept from one position to the next (of the rules it was
 * made for) and cleared when the caller wants.
 *
 * A won position needs more than a value-keeping move: in a game that can go
 * round, every position of a cycle can be won while the cycle never ends
 * (docs/solver.md, "Endless play"). There `progress` is the move of a proof
 * found with a fresh table (the shallowest its deepening reaches, so each
 * move makes progress toward the end, as bench/solve-strategy.ts checks),
 * without the endgame table once the board is small enough for it (its
 * answers carry no depth).
 */
export class PositionProver {
  readonly #name: string;
  readonly #solveMs: number;
  readonly #table = new ProofTable(TABLE_BITS);
  readonly #solver: Solver;
  /** Fresh-table solvers for won positions: with the endgame table (above its seeds) and without. */
  readonly #winSolver: Solver;
  readonly #smallWinSolver: Solver;
  readonly #endgameSeeds: number;

  constructor(options: SolvingAgentOptions) {
    if (!(options.solveMs > 0 && Number.isFinite(options.solveMs))) {
      throw new RangeError(
        `the solver's time must be a positive number of ms, got ${options.solveMs}`,
      );
    }
    this.#name = options.name;
    this.#solveMs = options.solveMs;
    this.#solver = new Solver({
      rules: options.rules,
      table: this.#table,
      endgame: options.endgame ?? null,
    });
    this.#winSolver = new Solver({
      rules: options.rules,
      tableBits: WIN_TABLE_BITS,
      endgame: options.endgame ?? null,
    });
    this.#smallWinSolver = new Solver({ rules: options.rules, tableBits: WIN_TABLE_BITS });
    this.#endgameSeeds = options.endgame?.maxSeeds ?? -1;
  }

  /**
   * What the solver proves of an unfinished position under `rules` (the rules
   * it was made for: others throw a RangeError saying how to start it for
   * them) within its time; null when it does not prove it.
   */
  prove(position: Position, rules: Rules): ProvenPosition | null {
    checkOwnRules(this.#name, this.#solver.rules, rules, "its solver's tables");
    const started = performance.now();
    const solution = this.#solver.solveState(position.stateView, {
      timeMs: this.#solveMs,
      moves: false,
    });
    if (solution.lo !== solution.hi || solution.bestMask === 0) return null;
    const moves: number[] = [];
    for (let a = 0; a < core.ACTIONS; a++) {
      if ((solution.bestMask & solution.legalMask & (1 << a)) !== 0) moves.push(a);
    }
    if (moves.length === 0) return null;
    const progress =
      solution.lo === 1
        ? this.#winningMove(position, this.#solveMs - (performance.now() - started))
        : null;
    return { value: solution.lo, moves, progress };
  }

  /** The move of a fresh shallowest proof that the position is won, or null if none within `timeMs`. */
  #winningMove(position: Position, timeMs: number): number | null {
    if (!(timeMs > 0)) return null;
    const seeds = position.pits.reduce((sum, n) => sum + n, 0);
    const solver = seeds > this.#endgameSeeds ? this.#winSolver : this.#smallWinSolver;
    solver.clear();
    const fresh = solver.solveState(position.stateView, { timeMs, moves: false });
    if (fresh.lo !== 1 || fresh.bestMask === 0) return null;
    // The lowest action of the proof's mask, as the strategy check plays it.
    return 31 - Math.clz32(fresh.bestMask & -fresh.bestMask);
  }

  /** Forgets the proofs kept from earlier positions. */
  clear(): void {
    this.#table.clear();
  }
}

/**
 * A search that switches to the exact solver where it can (docs/accuracy.md):
 * each move, the solver (PositionProver) first tries to prove the position's
 * value within its slice of the time, and when it does plays a move that
 * keeps that value, so that it never plays a value-losing move in a position
 * it proved; otherwise the search (`inner`, made with the rest of the time)
 * moves. The solver's table is kept from move to move within a game and
 * cleared for each new one. A won position takes the move of a fresh
 * shallowest proof (see PositionProver); drawn and lost positions take any
 * value-keeping move, drawn with the game's generator.
 */
export class SolvingAgent implements Agent {
  readonly name: string;
  readonly #inner: Agent;
  readonly #prover: PositionProver;
  /** Moves decided by the solver and by the search, since the agent was made (benchmarks). */
  readonly counts = { solved: 0, searched: 0 };
  /** The search's own value estimate, when it has one. */
  readonly estimateValue?: (position: Position, rules: Rules) => number;

  constructor(inner: Agent, options: SolvingAgentOptions) {
    this.#prover = new PositionProver(options);
    this.#inner = inner;
    this.name = options.name;
    const estimate = inner.estimateValue;
    if (estimate !== undefined) this.estimateValue = (p, r) => estimate.call(inner, p, r);
  }

  act(position: Position, ctx: AgentContext): number | Promise<number> {
    if (ctx.legal.length === 1) return ctx.legal[0] as number;
    const proven = this.#prover.prove(position, ctx.rules);
    if (proven !== null) {
      this.counts.solved++;
      return proven.progress ?? ctx.rng.pick(proven.moves);
    }
    this.counts.searched++;
    return this.#inner.act(position, ctx);
  }

  newGame(): void {
    this.#prover.clear();
    this.#inner.newGame?.();
  }

  close(): Promise<void> | void {
    return this.#inner.close?.();
  }
}
