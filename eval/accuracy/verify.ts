/**
 * Re-solving an accuracy set (`ayoayo accuracy --verify`): a set's checksum
 * shows only that its lines were not edited by hand, since anyone planting
 * values can make it again. The solver that proved the values proves them
 * again here, and the first line it disagrees with is named.
 */

import { DEFAULT_ENDGAME_SEEDS } from '../../solve/endgame/cache/table-cache.ts';
import { type EndgameValues, Solver, valueWord } from '../../solve/index.ts';
import {
  type AccuracySet,
  AccuracySetError,
  type SetHeader,
  type SetPosition,
} from './accuracy-set.ts';
import { DEFAULT_NODES } from './generate.ts';
import { sampleAccuracySet } from './sample.ts';

/** The solver gets this many times the nodes a position had when the set was made: its table starts from other positions here. */
const NODES_FACTOR = 4;
/** The most nodes a position gets, whatever its header says (a file from elsewhere must not set the cost). */
export const MAX_VERIFY_NODES = 64_000_000;
/** log2 of the solver table's entries, as the generator's. */
const TABLE_BITS = 21;

/** The solver's budget for re-solving the positions of a set with this header. */
export function verifyBudget(header: SetHeader): {
  readonly nodes: number;
  /** The endgame table's seeds (0: none); the table only makes the proofs shorter, not other. */
  readonly endgameSeeds: number;
} {
  const made = header.budget.nodes ?? DEFAULT_NODES;
  return {
    // At least the generator's default: a set made with fewer nodes was proven with a warmer table.
    nodes: Math.min(Math.max(made * NODES_FACTOR, DEFAULT_NODES), MAX_VERIFY_NODES),
    endgameSeeds: Math.min(header.budget.endgameSeeds ?? 0, DEFAULT_ENDGAME_SEEDS),
  };
}

export interface VerifyOptions {
  /** Positions to re-solve, drawn at random by `seed` (default: all of them). */
  readonly sample?: number;
  readonly seed?: number;
  /** The endgame table of verifyBudget's seeds, built for the set's rules (default: none). */
  readonly endgame?: EndgameValues | null;
  /** Nodes per position (default: verifyBudget's). */
  readonly nodes?: number;
  /** Called with the positions re-solved so far, from 0. */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface VerifyResult {
  /** Positions re-solved, every one of them agreeing with the set. */
  readonly checked: number;
  /** Positions in the set. */
  readonly total: number;
}

/**
 * Re-solves the set's positions (or a seeded sample of them, in the set's
 * order) and compares each value and every move's with the set's. Throws an
 * AccuracySetError naming the first line that disagrees, with both values,
 * or the first the solver cannot prove within the budget (then nothing
 * vouches for its values). Yields to the event loop between positions, so a
 * signal stops it.
 */
export async function verifyAccuracySet(
  set: AccuracySet,
  options: VerifyOptions = {},
): Promise<VerifyResult> {
  const nodes = options.nodes ?? verifyBudget(set.header).nodes;
  const lines = sampleLines(set, options.sample, options.seed ?? 1);
  const solver = new Solver({
    rules: set.rules,
    tableBits: TABLE_BITS,
    endgame: options.endgame ?? null,
  });
  options.onProgress?.(0, lines.length);
  for (const [done, index] of lines.entries()) {
    const p = set.positions[index] as SetPosition;
    const line = index + 2;
    const fail = (why: string): AccuracySetError =>
      new AccuracySetError(`accuracy set ${set.path}, line ${line}: ${why}`);
    const solution = solver.solveState(p.parsed.stateView, { nodes, moves: true });
    if (!solution.complete) {
      throw fail(
        `the solver did not prove ${p.position} within ${nodes} nodes, so its values cannot be checked`,
      );
    }
    const solved = {
      value: valueWord(solution.lo),
      moves: p.moves.map((_, a) =>
        (solution.legalMask & (1 << a)) !== 0 ? valueWord(solution.moveLo[a] as number) : null,
      ),
    };
    if (solved.value !== p.value || solved.moves.some((v, a) => v !== p.moves[a])) {
      throw fail(
        `the solver disagrees with the values of ${p.position}: the set has ${describe(p)}, the solver ${describe(solved)}; the set's values were changed or are wrong: do not measure on it`,
      );
    }
    options.onProgress?.(done + 1, lines.length);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { checked: lines.length, total: set.positions.length };
}

/** The indices of the positions to re-solve, in the set's order (see sampleAccuracySet). */
function sampleLines(set: AccuracySet, sample: number | undefined, seed: number): number[] {
  if (sample === undefined) return set.positions.map((_, i) => i);
  const index = new Map(set.positions.map((p, i) => [p, i]));
  return sampleAccuracySet(set, sample, `verify|${seed}`).positions.map(
    (p) => index.get(p) as number,
  );
}

function describe(values: {
  readonly value: string;
  readonly moves: readonly (string | null)[];
}): string {
  return `value ${values.value}, moves [${values.moves.map((v) => v ?? '-').join(', ')}]`;
}
