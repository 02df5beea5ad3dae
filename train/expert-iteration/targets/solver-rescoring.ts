import type { Rules } from '../../../env/index.ts';
import { NUM_ACTIONS } from '../../../models/mlp-runner.ts';
import { type EndgameValues, Solver } from '../../../solve/index.ts';

/**
 * Bits of the rescoring solver's table: 2^18 entries (8 MB), more than a
 * shard's iteration of budgeted solves fills, cleared in a few milliseconds.
 */
export const RESCORING_TABLE_BITS = 18;

/** What the solver proved of a position and its moves, for the player to move. */
export interface ProvenMoves {
  /** Bounds on the position's value, -1, 0 or 1 each: exact where lo === hi, -1..1 where nothing is known. */
  lo: number;
  hi: number;
  /** The legal actions not proven to lose the value (bit a for action a). */
  kept: number;
}

/** What a position is known to be before anything is proven. */
export function unknownMoves(legalMask: number): ProvenMoves {
  return { lo: -1, hi: 1, kept: legalMask };
}

/**
 * Exact targets where they are cheap, as Leela Chess Zero rescores with its
 * endgame tables: the exact solver (solve/) gets a fixed budget of nodes on
 * each searched self-play position and every one of its moves. Its proofs
 * correct what the search teaches (`rescore`): the policy target loses the
 * moves proven to throw the position's value away, and the value target is
 * held within the position's proven bounds (the proven result where it is
 * exact).
 *
 * The budget is counted in nodes, not milliseconds, so that the targets are
 * the same on any machine at any load; and the solver's table, whose proven
 * facts make later solves cheaper, is cleared at the start of every shard's
 * iteration (`clear`), so that the targets depend on the games alone, not on
 * which thread or machine played the shard before.
 */
export class SolverRescoring {
  readonly #solver: Solver;
  readonly #nodes: number;

  constructor(rules: Rules, endgame: EndgameValues | null, nodes: number) {
    if (!(Number.isInteger(nodes) && nodes > 0)) {
      throw new RangeError(
        `the rescoring solver's budget must be a positive whole number of nodes, got ${nodes}`,
      );
    }
    this.#solver = new Solver({ rules, tableBits: RESCORING_TABLE_BITS, endgame });
    this.#nodes = nodes;
  }

  /** Forgets the solver's table (at the start of each shard iteration). */
  clear(): void {
    this.#solver.clear();
  }

  /** Solves `state` and its moves within the budget into `out`; returns whether the value is exact. */
  prove(state: Uint8Array, out: ProvenMoves): boolean {
    const { lo, hi, legalMask, moveHi } = this.#solver.solveState(state, {
      nodes: this.#nodes,
      moves: true,
    });
    let kept = 0;
    // Every action but those proven below the position's lower bound, which is
    // the best action's: at least one is kept.
    for (let a = 0; a < NUM_ACTIONS; a++) {
      if ((legalMask & (1 << a)) !== 0 && (moveHi[a] as number) >= lo) kept |= 1 << a;
    }
    out.lo = lo;
    out.hi = hi;
    out.kept = kept;
    return lo === hi;
  }
}

/**
 * The policy target at `policy[offset ..]` (NUM_ACTIONS entries, 0 on
 * illegal actions) rescored in place by what was proven: the actions not
 * kept go to 0 and the rest are scaled back to sum 1 (uniform over the kept
 * ones if the search gave none of them anything).
 */
export function rescorePolicy(policy: Float32Array, offset: number, proven: ProvenMoves): void {
  let sum = 0;
  let count = 0;
  for (let a = 0; a < NUM_ACTIONS; a++) {
    if ((proven.kept & (1 << a)) === 0) policy[offset + a] = 0;
    else {
      sum += policy[offset + a] as number;
      count++;
    }
  }
  for (let a = 0; a < NUM_ACTIONS; a++) {
    if ((proven.kept & (1 << a)) === 0) continue;
    policy[offset + a] = sum > 0 ? (policy[offset + a] as number) / sum : 1 / count;
  }
}

/** The value target held within the proven bounds: the proven result where the value is exact. */
export function provenValue(value: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, value));
}
