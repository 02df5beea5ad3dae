import * as z from 'zod';
import {
  describeIssues,
  formatRules,
  type Rules,
  type RulesInput,
  resolveRules,
  sameRules,
} from '../env/index.ts';
import type { EndgameValues } from './endgame/build.ts';
import { MAX_TABLE_BITS } from './table.ts';

/** A bad argument to `solve`: names the option and what is wrong with it. */
export class SolveOptionsError extends Error {
  override name = 'SolveOptionsError';
}

/** How long `solve` may run when no budget is given: 10 seconds. */
export const DEFAULT_SOLVE_MS = 10_000;

export interface SolveBudget {
  /** Milliseconds of search (default 10 000 unless `nodes` is given). */
  readonly timeMs?: number;
  /** Nodes of search. */
  readonly nodes?: number;
}

export interface SolveOptions {
  /** Rule options (docs/rules.md), merged over the defaults. */
  readonly rules?: RulesInput;
  /** When to stop: whichever limit comes first (default 10 s). */
  readonly budget?: SolveBudget;
  /** true (default): the value of every legal move; false: the position's value and a best move. */
  readonly moves?: boolean;
  /** log2 of the transposition table's entries (default 20: 32 MB, 32 bytes an entry). */
  readonly tableBits?: number;
  /** Hears about every PROGRESS_MS how far a running solve got (for a progress bar). */
  readonly onProgress?: (nodes: number, elapsedMs: number) => void;
  /**
   * Values of every small board (buildEndgame, or eval's loadEndgame), built
   * for the same rules: positions with that few seeds on the board are looked
   * up rather than searched. None by default.
   */
  readonly endgame?: EndgameValues;
}

const budgetSchema = z
  .object({
    timeMs: z.number().positive().finite().optional().describe('milliseconds'),
    nodes: z.number().int().positive().optional().describe('search nodes'),
  })
  .strict();

const optionsSchema = z
  .object({
    rules: z.unknown().optional(),
    budget: budgetSchema.optional(),
    moves: z.boolean().optional(),
    tableBits: z.number().int().min(1).max(MAX_TABLE_BITS).optional(),
    onProgress: z
      .custom<(nodes: number, elapsedMs: number) => void>((v) => typeof v === 'function', {
        message: 'expected a function',
      })
      .optional(),
    endgame: z
      .custom<EndgameValues>(
        (v) =>
          typeof v === 'object' &&
          v !== null &&
          (v as EndgameValues).lo instanceof Int8Array &&
          (v as EndgameValues).hi instanceof Int8Array,
        { message: 'expected an endgame table (buildEndgame)' },
      )
      .optional(),
  })
  .strict();

/** The options resolved: rules merged, budget defaulted. */
export interface ResolvedSolveOptions {
  readonly rules: Rules;
  readonly budget: SolveBudget;
  readonly moves: boolean;
  readonly tableBits: number | undefined;
  readonly onProgress: ((nodes: number, elapsedMs: number) => void) | undefined;
  readonly endgame: EndgameValues | undefined;
}

/** Validates `solve`'s options; throws SolveOptionsError (or the rules' RulesError) naming what is wrong. */
export function resolveSolveOptions(input: unknown): ResolvedSolveOptions {
  const parsed = optionsSchema.safeParse(input ?? {});
  if (!parsed.success) {
    throw new SolveOptionsError(
      `invalid solve options: ${describeIssues(parsed.error, 'options')}`,
    );
  }
  const { budget = {}, moves = true, tableBits, onProgress, endgame } = parsed.data;
  const rules = resolveRules(parsed.data.rules as RulesInput | undefined);
  if (endgame !== undefined && !sameRules(endgame.rules, rules)) {
    throw new SolveOptionsError(
      `invalid solve options: endgame: the table was built for other rules (${formatRules(endgame.rules)})`,
    );
  }
  const limits =
    budget.timeMs === undefined && budget.nodes === undefined
      ? { timeMs: DEFAULT_SOLVE_MS }
      : budget;
  return { rules, budget: limits, moves, tableBits, onProgress, endgame };
}
