import { describe, expect, it } from 'vitest';
import { MinimaxAgent } from '../../agents/minimax.ts';
import { RandomAgent } from '../../agents/random.ts';
import { SolvingAgent } from '../../agents/solving-agent.ts';
import {
  agentKind,
  agentSpecForms,
  checkAgentSpec,
  createAgent,
  parseAgentSpec,
  registerAgentKinds,
  splitAgentList,
} from '../../agents/spec.ts';
import { parseDuration } from '../../agents/spec-options.ts';
import { DEFAULT_RULES, legalActions, parsePosition, Random, type Rules } from '../../env/index.ts';

declare module '../../agents/agent-kinds.ts' {
  interface AgentSpecs {
    'test-timed': { readonly timeMs: number };
  }
}

// A kind of the test's own, declared solvable: the registry alone makes it solver-backed.
const searched: number[] = [];
const prepared: Rules[] = [];
registerAgentKinds({
  kinds: [
    agentKind({
      kind: 'test-timed',
      name: 'timed',
      forms: ['timed:t=TIME'],
      parse: (argument, fail) => {
        const text = argument?.text ?? '';
        const timeMs = text.startsWith('t=') ? parseDuration(text.slice(2)) : null;
        if (timeMs === null) throw fail('timed needs t=TIME');
        return { timeMs };
      },
      create: (spec, { name }) => {
        searched.push(spec.timeMs);
        return new RandomAgent(name);
      },
      solvable: { forms: ['timed:t=TIME,solve=1'], withTimeMs: (_spec, timeMs) => ({ timeMs }) },
    }),
  ],
  // No table: the solver searches every position itself.
  solverEndgame: { load: () => null, prepare: (rules) => prepared.push(rules) },
});

describe('the registry makes any solvable kind solver-backed', () => {
  it('parses solve=1 once, recording how the solver and the search share t', () => {
    expect(parseAgentSpec('timed:t=50ms,solve=1')).toEqual({
      kind: 'test-timed',
      name: 'timed:t=50ms,solve=1',
      timeMs: 50,
      solver: { solveMs: 25, searchMs: 25 },
    });
    expect(parseAgentSpec('timed:t=50ms,solve=0')).toEqual({
      kind: 'test-timed',
      name: 'timed:t=50ms,solve=0',
      timeMs: 50,
    });
  });

  it('makes the kind’s own agent with the search’s share, behind the solver', async () => {
    searched.length = 0;
    const agent = await createAgent('timed:t=50ms,solve=1');
    expect(agent).toBeInstanceOf(SolvingAgent);
    expect(agent.name).toBe('timed:t=50ms,solve=1');
    expect(searched).toEqual([25]);
    // The solver moves first, and proves a small endgame at once.
    const endgame = parsePosition('0,0,0,0,1,1/0,0,0,0,1,1/22-22/0');
    const rng = Random.fromSeed(1);
    await agent.act(endgame, { legal: legalActions(endgame), rng, rules: DEFAULT_RULES });
    expect((agent as SolvingAgent).counts).toEqual({ solved: 1, searched: 0 });
    const plain = await createAgent('timed:t=50ms');
    expect(plain).toBeInstanceOf(RandomAgent);
    expect(searched).toEqual([25, 50]);
  });

  it('has the check make sure of the endgame table, in the checking thread', async () => {
    prepared.length = 0;
    await checkAgentSpec('timed:t=5ms');
    expect(prepared).toEqual([]);
    await checkAgentSpec(parseAgentSpec('timed:t=5ms,solve=1'), { rules: { leftoverTo: 'owner' } });
    expect(prepared).toEqual([expect.objectContaining({ leftoverTo: 'owner' })]);
  });

  it('does the same for alpha-beta, the way it does for every solvable kind', async () => {
    const agent = await createAgent('minimax:t=40ms,solve=1');
    expect(agent).toBeInstanceOf(SolvingAgent);
    expect(parseAgentSpec('minimax:t=40ms,solve=1')).toEqual({
      kind: 'minimax',
      name: 'minimax:t=40ms,solve=1',
      timeMs: 40,
      solver: { solveMs: 20, searchMs: 20 },
    });
    expect(await createAgent('minimax:t=40ms,solve=0')).toBeInstanceOf(MinimaxAgent);
  });

  it('lists the solver-backed forms after every kind’s own, and keeps solve= with its agent', () => {
    expect(agentSpecForms().slice(-2)).toEqual(['minimax:t=50ms,solve=1', 'timed:t=TIME,solve=1']);
    expect(splitAgentList(['timed:t=5ms,solve=1,random,minimax:t=5ms,solve=1'])).toEqual([
      'timed:t=5ms,solve=1',
      'random',
      'minimax:t=5ms,solve=1',
    ]);
  });

  it('refuses a bad solve= in one line naming it', () => {
    for (const [spec, why] of [
      [
        'timed:solve=1',
        'solve=1 needs a time t=TIME (a positive time up to 600s, such as 50ms or 2s)',
      ],
      [
        'timed:t=0ms,solve=1',
        "t must be a positive time up to 600s, such as 50ms or 2s, got '0ms'",
      ],
      ['timed:t=5ms,solve=2', 'solve must be 0 or 1'],
      ['timed:t=5ms,solve=1,solve=1', 'solve is given twice (solve=1 and solve=1)'],
    ] as const) {
      expect(() => parseAgentSpec(spec), spec).toThrow(`invalid agent '${spec}': ${why}`);
    }
  });
});
