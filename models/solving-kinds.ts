/**
 * The solver-backed alpha-beta search `minimax:t=50ms,solve=1`
 * (agents/solving-agent.ts): registered here, beside the network kinds,
 * because its solver reads the endgame table from eval's cache, which
 * agents/ sits below. Imported by models/policy-kind.ts, so wherever agent
 * kinds with models are known this one is too.
 */
import { MinimaxAgent } from '../agents/minimax.ts';
import { SOLVE_SHARE, SolvingAgent } from '../agents/solving-agent.ts';
import { registerAgentKind } from '../agents/spec.ts';
import { DURATION_FORMS, optionKeys, parseDuration, splitFields } from '../agents/spec-options.ts';
import { solvingAgentEndgame } from './solver-endgame.ts';

declare module '../agents/agent-kinds.ts' {
  interface AgentSpecs {
    'minimax-solve': { readonly timeMs: number };
  }
}

registerAgentKind('minimax-solve', {
  name: 'minimax',
  forms: ['minimax:t=50ms,solve=1'],
  takes: (argument) => optionKeys(argument).includes('solve'),
  parse: (argument, fail) => {
    const { bare, options } = splitFields(argument ?? '', fail);
    const { t, solve, ...others } = options;
    const extra = [...bare.filter((b) => b.length > 0), ...Object.keys(others)];
    if (extra.length > 0) throw fail(`unexpected '${extra.join(',')}': give t=TIME,solve=1`);
    if (solve !== '1') throw fail('solve must be 1 (leave it out for the search alone)');
    const timeMs = t === undefined ? null : parseDuration(t);
    if (timeMs === null) {
      throw fail(`solve=1 needs a time t=TIME (${DURATION_FORMS}): the solver gets a share of it`);
    }
    return { timeMs };
  },
  create: ({ timeMs }, { name, rules }) => {
    // The solver first, with its share of the time; the search with the rest.
    const search = new MinimaxAgent({ rules, name, timeMs: timeMs * (1 - SOLVE_SHARE) });
    return new SolvingAgent(search, {
      name,
      rules,
      solveMs: timeMs * SOLVE_SHARE,
      endgame: solvingAgentEndgame(rules),
    });
  },
  module: import.meta.url,
});
