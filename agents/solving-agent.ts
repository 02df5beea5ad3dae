import type { Position, Rules } from '../env/index.ts';
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

export interface SolvingAgentOptions {
  readonly name: string;
  /** The rules it plays under (its solver's table and endgame table hold their values). */
  readonly rules: Rules;
  /** Milliseconds the solver may spend on a move before the search takes over. */
  readonly solveMs: number;
  /** Values of every small board for the solver to look up (solve's buildEndgame), for these rules. */
  readonly endgame?: EndgameValues | null;
}

/**
 * A search that switches to the exact solver where it can (docs/accuracy.md):
 * each move, the solver first tries to prove the position's value within its
 * slice of the time, and when it does plays a move that keeps that value
 * (chosen with the game's generator among those proven), so that it never
 * plays a value-losing move in a position it proved; otherwise the search
 * (`inner`, made with the rest of the time) moves. The solver's table holds
 * proven facts only, so it is kept from move to move within a game and
 * cleared for each new one.
 */
export class SolvingAgent implements Agent {
  readonly name: string;
  readonly #inner: Agent;
  readonly #solveMs: number;
  readonly #table = new ProofTable(TABLE_BITS);
  readonly #solver: Solver;
  /** Moves decided by the solver and by the search, since the agent was made (benchmarks). */
  readonly counts = { solved: 0, searched: 0 };
  /** The search's own value estimate, when it has one. */
  readonly estimateValue?: (position: Position, rules: Rules) => number;

  constructor(inner: Agent, options: SolvingAgentOptions) {
    if (!(options.solveMs > 0 && Number.isFinite(options.solveMs))) {
      throw new RangeError(
        `the solver's time must be a positive number of ms, got ${options.solveMs}`,
      );
    }
    this.#inner = inner;
    this.name = options.name;
    this.#solveMs = options.solveMs;
    this.#solver = new Solver({
      rules: options.rules,
      table: this.#table,
      endgame: options.endgame ?? null,
    });
    const estimate = inner.estimateValue;
    if (estimate !== undefined) this.estimateValue = (p, r) => estimate.call(inner, p, r);
  }

  act(position: Position, ctx: AgentContext): number | Promise<number> {
    if (ctx.legal.length === 1) return ctx.legal[0] as number;
    const { rules } = this.#solver;
    if (
      ctx.rules.captureSeedStays !== rules.captureSeedStays ||
      ctx.rules.leftoverTo !== rules.leftoverTo
    ) {
      // Its tables hold values under the rules it was made for; under others they would lie.
      throw new RangeError(`${this.name} was made for other rules than this game's`);
    }
    const solution = this.#solver.solveState(position.stateView, {
      timeMs: this.#solveMs,
      moves: false,
    });
    if (solution.lo === solution.hi && solution.bestMask !== 0) {
      const proven = ctx.legal.filter((a) => (solution.bestMask & (1 << a)) !== 0);
      if (proven.length > 0) {
        this.counts.solved++;
        return ctx.rng.pick(proven);
      }
    }
    this.counts.searched++;
    return this.#inner.act(position, ctx);
  }

  newGame(): void {
    this.#table.clear();
    this.#inner.newGame?.();
  }

  close(): Promise<void> | void {
    return this.#inner.close?.();
  }
}
