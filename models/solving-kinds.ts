/**
 * The solver-backed alpha-beta search `minimax:t=50ms,solve=1`
 * (agents/solving-agent.ts): its parser and factory, registered by
 * models/policy-kind.ts beside the network kinds, because its solver reads
 * the endgame table from eval's cache, which agents/ sits below.
 */
import type { Agent } from '../agents/agent.ts';
import { MinimaxAgent } from '../agents/minimax.ts';
import { SOLVE_SHARE, SolvingAgent } from '../agents/solving-agent.ts';
import type { AgentSpecError } from '../agents/spec.ts';
import { DURATION_FORMS, parseDuration, splitFields } from '../agents/spec-options.ts';
import type { Rules } from '../env/rules.ts';
import { solvingAgentEndgame } from './solver-endgame.ts';

/** A parsed `minimax:t=50ms,solve=1`. */
export interface MinimaxSolveSpec {
  readonly timeMs: number;
}

/** Parses what follows `minimax:` in a spec with `solve=`: t=TIME and solve=1, nothing else. */
export function parseMinimaxSolveSpec(
  argument: string | null,
  fail: (why: string) => AgentSpecError,
): MinimaxSolveSpec {
  const { bare, options } = splitFields(argument ?? '', fail);
  const { t, solve, ...others } = options;
  const extra = [...bare.filter((b) => b.length > 0), ...Object.keys(others)];
  if (extra.length > 0) throw fail(`unexpected '${extra.join(',')}': give t=TIME,solve=1`);
  if (solve !== '1') throw fail('solve must be 1 (leave it out for the search alone)');
  if (t === undefined) {
    throw fail(`solve=1 needs a time t=TIME (${DURATION_FORMS}): the solver gets a share of it`);
  }
  const timeMs = parseDuration(t);
  if (timeMs === null) throw fail(`t must be ${DURATION_FORMS}, got '${t}'`);
  return { timeMs };
}

/** The solver with its share of the time first, the search with the rest. */
export function createMinimaxSolveAgent(
  name: string,
  { timeMs }: MinimaxSolveSpec,
  rules: Rules,
): Agent {
  const search = new MinimaxAgent({ rules, name, timeMs: timeMs * (1 - SOLVE_SHARE) });
  return new SolvingAgent(search, {
    name,
    rules,
    solveMs: timeMs * SOLVE_SHARE,
    endgame: solvingAgentEndgame(rules),
  });
}
