import { describe, expect, it } from 'vitest';
import { ExternalAgent } from '../../agents/external.ts';
import { GreedyAgent } from '../../agents/greedy.ts';
import { MctsAgent } from '../../agents/mcts.ts';
import { MinimaxAgent } from '../../agents/minimax.ts';
import { RandomAgent } from '../../agents/random.ts';
import {
  agentKindSources,
  agentSpecForms,
  checkAgentSpec,
  createAgent,
  parseAgentSpec,
  specFiles,
} from '../../agents/spec.ts';

describe('parseAgentSpec', () => {
  it.each([
    ['random', { kind: 'random' }],
    ['greedy', { kind: 'greedy' }],
    ['minimax:4', { kind: 'minimax', depth: 4 }],
    [' minimax:12 ', { kind: 'minimax', depth: 12 }],
    ['minimax:t=200ms', { kind: 'minimax', timeMs: 200 }],
    ['minimax:t=1.5s', { kind: 'minimax', timeMs: 1500 }],
    ['mcts:1000', { kind: 'mcts', iterations: 1000 }],
    ['ext:python3 engine.py --level 3', { kind: 'ext', command: 'python3 engine.py --level 3' }],
    ['ext:a:b', { kind: 'ext', command: 'a:b' }],
  ])('%s', (spec, expected) => {
    // Named by the spec as given, trimmed.
    expect(parseAgentSpec(spec)).toEqual({ ...expected, name: spec.trim() });
  });

  it.each([
    ['alphazero', /unknown agent 'alphazero'/],
    ['toString:1', /unknown agent 'toString'/],
    ['', /empty agent name/],
    ['minimax', /needs a depth/],
    ['minimax:0', /depth must be an integer in 1\.\.64/],
    ['minimax:65', /depth must be/],
    ['minimax:2.5', /depth must be/],
    ['minimax:t=fast', /depth must be/],
    ['mcts', /mcts needs a number/],
    ['mcts:-5', /mcts needs a number/],
    ['random:3', /random takes no argument/],
    ['ext:', /ext needs a command/],
  ])('rejects %j with a clear error listing the valid forms', (spec, why) => {
    expect(() => parseAgentSpec(spec)).toThrow(why);
    expect(() => parseAgentSpec(spec)).toThrow(`valid agents: ${agentSpecForms().join(', ')}`);
  });
});

describe('createAgent', () => {
  it('makes each kind of agent, named by its spec', async () => {
    const cases: [string, new (...args: never[]) => object][] = [
      ['random', RandomAgent],
      ['greedy', GreedyAgent],
      ['minimax:3', MinimaxAgent],
      ['minimax:t=50ms', MinimaxAgent],
      ['mcts:10', MctsAgent],
      ['ext:node engine.mjs', ExternalAgent],
    ];
    for (const [spec, kind] of cases) {
      const agent = await createAgent(spec, { rules: { captureSeedStays: true } });
      expect(agent).toBeInstanceOf(kind);
      expect(agent.name).toBe(spec);
      await agent.close?.();
    }
  });

  it('makes, checks and reads the files of a spec parsed once', async () => {
    const spec = parseAgentSpec(' minimax:3 ');
    await expect(checkAgentSpec(spec)).resolves.toBeUndefined();
    expect(specFiles(spec)).toEqual([]);
    const agent = await createAgent(spec, { rules: { captureSeedStays: true } });
    expect(agent).toBeInstanceOf(MinimaxAgent);
    expect(agent.name).toBe('minimax:3');
  });

  it('rejects bad rules and unknown specs', async () => {
    await expect(
      createAgent('random', { rules: { leftoverTo: 'nobody' as 'owner' } }),
    ).rejects.toThrow(/leftoverTo/);
    await expect(createAgent('mimimax:3')).rejects.toThrow(/unknown agent 'mimimax'/);
  });

  it('makes policy agents once the network kinds are registered, with a clear error for a bad path', async () => {
    // Until the network kinds are registered, the error says what to import.
    await expect(createAgent('policy:/nonexistent/policy')).rejects.toThrow(
      /policy agents are not available: import 'ayoayo\/agents' \(or call registerNetworkKinds from agents\/network\/kinds.ts\) first/,
    );
    // The solver-backed minimax needs no network: it is there from the start.
    expect(parseAgentSpec('minimax:t=50ms,solve=1')).toMatchObject({ kind: 'minimax' });
    expect(agentKindSources()).toEqual([]);
    expect(agentSpecForms()).toEqual([
      'random',
      'greedy',
      'minimax:D',
      'minimax:t=200ms',
      'mcts:N',
      'perfect',
      'ext:COMMAND',
      'minimax:t=50ms,solve=1',
    ]);
    // Registration is a call, not an import.
    const { registerNetworkKinds } = await import('../../agents/network/kinds.ts');
    expect(agentSpecForms()).not.toContain('policy:PATH');
    registerNetworkKinds();
    expect(agentSpecForms()).toContain('policy:PATH');
    expect(agentSpecForms()).toContain('minimax:t=50ms,solve=1');
    expect(agentKindSources()).toEqual([
      {
        module: new URL('../../agents/network/kinds.ts', import.meta.url).href,
        register: 'registerNetworkKinds',
      },
    ]);
    await expect(createAgent('policy:/nonexistent/policy')).rejects.toThrow(/nonexistent/);
  });
});
