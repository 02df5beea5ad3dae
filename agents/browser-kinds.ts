/**
 * The agent kinds that run anywhere, the browser page included: the
 * baselines and the searches without a network, each declared once (forms,
 * parser, factory), made the same way by every registry. Alpha-beta may be
 * solver-backed (`minimax:t=50ms,solve=1`, see solver-backed.ts) where the
 * registry has the endgame tables. No Node built-in.
 */
import type { Agent } from './agent.ts';
import { type AgentKind, type AnyAgentKind, agentKind, type KindGrammar } from './agent-kinds.ts';
import { GreedyAgent } from './greedy.ts';
import { MctsAgent } from './mcts.ts';
import { MinimaxAgent } from './minimax.ts';
import { MAX_PLY } from './minimax-search.ts';
import { RandomAgent } from './random.ts';
import { DURATION_FORMS, integerIn, parseDuration } from './spec-options.ts';

declare module './agent-kinds.ts' {
  interface AgentSpecs {
    random: Record<never, never>;
    greedy: Record<never, never>;
    // Its kind is made where its book and tables are (perfect-kind.ts; the page's solver worker).
    perfect: Record<never, never>;
    minimax: { readonly depth: number } | { readonly timeMs: number };
    mcts: { readonly iterations: number };
  }
}

const MAX_ITERATIONS = 10_000_000;

/** The grammar of a kind whose spec is its name alone. */
function nameOnly<K extends 'random' | 'greedy' | 'perfect'>(kind: K): KindGrammar<K> {
  return {
    kind,
    forms: [kind],
    parse: (argument, fail) => {
      if (argument !== null) throw fail(`${kind} takes no argument`);
      return {};
    },
  };
}

/** A kind whose spec is its name alone. */
function plainKind<K extends 'random' | 'greedy'>(
  kind: K,
  make: (name: string) => Agent,
): AgentKind<K> {
  return { ...nameOnly(kind), create: (_spec, context) => make(context.name) };
}

/** The grammar of `perfect`, the perfect player (made where its book and tables are). */
export const perfectGrammar = nameOnly('perfect');

const minimax = agentKind({
  kind: 'minimax',
  forms: ['minimax:D', 'minimax:t=200ms'],
  parse: (argument, fail, otherForms) => {
    if (argument === null) {
      throw fail('minimax needs a depth (minimax:4) or a time (minimax:t=200ms)');
    }
    if (argument.fields.length > 1) throw fail(oneDepthOrTime(otherForms));
    const { text } = argument;
    const timeMs = text.startsWith('t=') ? parseDuration(text.slice(2)) : null;
    if (timeMs !== null) return { timeMs };
    const depth = integerIn(text, 1, MAX_PLY);
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
    const iterations = argument === null ? null : integerIn(argument.text, 1, MAX_ITERATIONS);
    if (iterations === null) {
      throw fail(
        `mcts needs a number of iterations per move in 1..${MAX_ITERATIONS}, e.g. mcts:1000`,
      );
    }
    return { iterations };
  },
  create: (spec, { name, rules }) => new MctsAgent({ iterations: spec.iterations, rules, name }),
});

/** The kinds that run anywhere, in the order help lists them. */
export const BROWSER_KINDS: readonly AnyAgentKind[] = [
  plainKind('random', (name) => new RandomAgent(name)),
  plainKind('greedy', (name) => new GreedyAgent(name)),
  minimax,
  mcts,
];
