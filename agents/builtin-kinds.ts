/**
 * agents/' own agent kinds: the baselines, the searches without a network
 * and external engines, and the perfect player (perfect-kind.ts), each declared once (forms, parser, factory). The
 * registry starts with them (kind-registry.ts). Alpha-beta may be
 * solver-backed (`minimax:t=50ms,solve=1`, see solver-backed.ts).
 */
import type { Agent } from './agent.ts';
import { type AgentKind, type AnyAgentKind, agentKind } from './agent-kinds.ts';
import { ExternalAgent } from './external.ts';
import { GreedyAgent } from './greedy.ts';
import { MctsAgent } from './mcts.ts';
import { MinimaxAgent } from './minimax.ts';
import { MAX_PLY } from './minimax-search.ts';
import { perfectKind } from './perfect-kind.ts';
import { RandomAgent } from './random.ts';
import { DURATION_FORMS, integerIn, parseDuration, requiredArgument } from './spec-options.ts';

declare module './agent-kinds.ts' {
  interface AgentSpecs {
    random: Record<never, never>;
    greedy: Record<never, never>;
    minimax: { readonly depth: number } | { readonly timeMs: number };
    mcts: { readonly iterations: number };
    ext: { readonly command: string };
  }
}

const MAX_ITERATIONS = 10_000_000;

/** A kind whose spec is its name alone. */
function plainKind<K extends 'random' | 'greedy'>(
  kind: K,
  make: (name: string) => Agent,
): AgentKind<K> {
  return {
    kind,
    forms: [kind],
    parse: (argument, fail) => {
      if (argument !== null) throw fail(`${kind} takes no argument`);
      return {};
    },
    create: (_spec, context) => make(context.name),
  };
}

const minimax = agentKind({
  kind: 'minimax',
  forms: ['minimax:D', 'minimax:t=200ms'],
  parse: (argument, fail, otherForms) => {
    if (argument === null) {
      throw fail('minimax needs a depth (minimax:4) or a time (minimax:t=200ms)');
    }
    if (argument.includes(',')) throw fail(oneDepthOrTime(otherForms));
    const timeMs = argument.startsWith('t=') ? parseDuration(argument.slice(2)) : null;
    if (timeMs !== null) return { timeMs };
    const depth = integerIn(argument, 1, MAX_PLY);
    if (depth === null) {
      throw fail(
        `the depth must be an integer in 1..${MAX_PLY}, or t=TIME with TIME ${DURATION_FORMS}`,
      );
    }
    return { depth };
  },
  create: (spec, { name, rules }) =>
    new MinimaxAgent({
      rules,
      name,
      ...('depth' in spec ? { depth: spec.depth } : { timeMs: spec.timeMs }),
    }),
  solvable: { forms: ['minimax:t=50ms,solve=1'], withTimeMs: (_spec, timeMs) => ({ timeMs }) },
});

/** Why a comma after `minimax:` is refused: only the other specs named minimax take options. */
function oneDepthOrTime(otherForms: readonly string[]): string {
  const options =
    otherForms.length > 0 ? `, and options after a comma only as ${otherForms.join(' or ')}` : '';
  return `minimax takes one depth or time${options}; to name several agents, give each its own --agents entry`;
}

const mcts = agentKind({
  kind: 'mcts',
  forms: ['mcts:N'],
  parse: (argument, fail) => {
    const iterations = argument === null ? null : integerIn(argument, 1, MAX_ITERATIONS);
    if (iterations === null) {
      throw fail(
        `mcts needs a number of iterations per move in 1..${MAX_ITERATIONS}, e.g. mcts:1000`,
      );
    }
    return { iterations };
  },
  create: (spec, { name, rules }) => new MctsAgent({ iterations: spec.iterations, rules, name }),
});

const ext = agentKind({
  kind: 'ext',
  forms: ['ext:COMMAND'],
  parse: (argument, fail) => ({
    command: requiredArgument(argument, 'ext needs a command, e.g. ext:python3 engine.py', fail),
  }),
  // A command line may hold any commas.
  continues: () => true,
  create: (spec, { name, options }) =>
    new ExternalAgent(spec.command, {
      name,
      ...(options.moveTimeoutMs !== undefined ? { moveTimeoutMs: options.moveTimeoutMs } : {}),
      ...(options.startupMs !== undefined ? { startupMs: options.startupMs } : {}),
    }),
});

/** agents/' kinds, in the order help lists them. */
export const BUILTIN_KINDS: readonly AnyAgentKind[] = [
  plainKind('random', (name) => new RandomAgent(name)),
  plainKind('greedy', (name) => new GreedyAgent(name)),
  minimax,
  mcts,
  perfectKind,
  ext,
];
