/**
 * Solver-backed play, once for every kind that allows it (`minimax:t=50ms,solve=1`,
 * `az:PATH,t=50ms,solve=1`): the registry wraps each solvable kind with
 * solverBacked, which reads `solve=` from its spec, gives the exact solver
 * SOLVE_SHARE of the move's time `t=` and the kind's own search the rest,
 * and makes the agent a SolvingAgent over that search. `ayoayo serve
 * --search` reads its `solve=` with readSolveOption too.
 */
import type {
  AgentMakingOptions,
  AgentSpec,
  RegisteredKind,
  SolverEndgame,
  SolverShare,
  SpecParser,
} from './agent-kinds.ts';
import { SOLVE_SHARE, SolvingAgent } from './solving-agent.ts';
import { argumentOf, givesOption, optionKeyOf, type SpecArgument } from './spec-grammar.ts';
import { DURATION_FORMS, fieldOptions, parseDuration } from './spec-options.ts';

/** How a move's time is shared: SOLVE_SHARE of it to the solver first, the rest to the search. */
export function shareMoveTime(timeMs: number): SolverShare {
  const solveMs = timeMs * SOLVE_SHARE;
  return { solveMs, searchMs: timeMs - solveMs };
}

/** An argument read for `solve=`: the rest, and with solve=1 the time's share. */
export interface SolveOption {
  /** The fields but solve=, for the kind's own parser (null when none is left). */
  readonly rest: SpecArgument | null;
  /** With solve=1, how the solver and the search share the move's time `t=`; else null. */
  readonly solver: SolverShare | null;
}

/**
 * Takes the `solve=` option (0 or 1) out of a spec's argument: solve=1 needs
 * the move's time `t=`, which it shares (shareMoveTime). An option given
 * twice is refused, as in every kind.
 */
export function readSolveOption(argument: SpecArgument, fail: (why: string) => Error): SolveOption {
  const { options } = fieldOptions(argument.fields, fail);
  const { solve, t } = options;
  const rest = argumentOf(argument.fields.filter((field) => field.key !== 'solve'));
  if (solve === undefined || solve === '0') return { rest, solver: null };
  if (solve !== '1') throw fail('solve must be 0 or 1');
  if (t === undefined) {
    throw fail(`solve=1 needs a time t=TIME (${DURATION_FORMS}): the solver gets a share of it`);
  }
  const timeMs = parseDuration(t);
  if (timeMs === null) throw fail(`t must be ${DURATION_FORMS}, got '${t}'`);
  return { rest, solver: shareMoveTime(timeMs) };
}

/**
 * `kind` made solver-backed where its spec says `solve=1`: its parse takes
 * solve= out (the kind's own parser gets the other fields, and the spec
 * records the time's share as `solver`), its check also makes sure the
 * endgame table is cached, and its agent is a SolvingAgent over the kind's
 * own agent made with the search's share of the time (`withTimeMs`). A spec
 * without solve=1 is the kind's own, unchanged. `endgame()` gives the tables
 * its solver reads (the registry's).
 */
export function solverBacked<O extends AgentMakingOptions>(
  kind: RegisteredKind<O>,
  withTimeMs: (spec: AgentSpec, timeMs: number) => AgentSpec,
  endgame: () => SolverEndgame,
): RegisteredKind<O> {
  const parse: SpecParser<object> = (argument, fail, otherForms) => {
    if (argument === null || !givesOption(argument, 'solve')) {
      return kind.parse(argument, fail, otherForms);
    }
    const { rest, solver } = readSolveOption(argument, fail);
    if (solver === null) return kind.parse(rest, fail, otherForms);
    return { ...kind.parse(rest, fail, otherForms), solver };
  };
  return {
    ...kind,
    parse,
    continues: (piece) => kind.continues(piece) || optionKeyOf(piece) === 'solve',
    check: async (spec, context) => {
      await kind.check(spec, context);
      if (spec.solver !== undefined) endgame().prepare(context.rules);
    },
    create: async (spec, context) => {
      if (spec.solver === undefined) return kind.create(spec, context);
      const { solver, ...own } = spec;
      const search = await kind.create(withTimeMs(own as AgentSpec, solver.searchMs), context);
      return new SolvingAgent(search, {
        name: context.name,
        rules: context.rules,
        solveMs: solver.solveMs,
        endgame: endgame().load(context.rules),
      });
    },
  };
}
