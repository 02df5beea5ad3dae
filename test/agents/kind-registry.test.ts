import { describe, expect, it } from 'vitest';
import { BROWSER_KINDS } from '../../agents/browser-kinds.ts';
import { AgentKindRegistry } from '../../agents/kind-registry.ts';
import { RandomAgent } from '../../agents/random.ts';
import {
  agentKind,
  createAgent,
  parseAgentSpec,
  registerAgentKinds,
  specRunsCommands,
  splitAgentList,
} from '../../agents/spec.ts';
import { specArgument, specFields, specParts } from '../../agents/spec-grammar.ts';
import { refuseExternal } from '../../queue/accept-job.ts';

declare module '../../agents/agent-kinds.ts' {
  interface AgentSpecs {
    'test-shell': { readonly line: string };
  }
}

// A kind of the test's own that runs commands: the property, not its name, says so.
registerAgentKinds({
  kinds: [
    agentKind({
      kind: 'test-shell',
      name: 'shell',
      forms: ['shell:LINE'],
      parse: (argument, fail) => {
        if (argument === null) throw fail('shell needs a line');
        return { line: argument.text };
      },
      continues: () => true,
      runsCommands: true,
      create: (_spec, { name }) => new RandomAgent(name),
    }),
  ],
});

describe('the kinds that run commands', () => {
  it('are known by their kind’s runsCommands, and a queue worker refuses them unless allowed', () => {
    expect(specRunsCommands('ext:python3 engine.py')).toBe(true);
    expect(specRunsCommands('shell:make play')).toBe(true);
    expect(specRunsCommands(parseAgentSpec('shell:make play'))).toBe(true);
    expect(specRunsCommands('minimax:4')).toBe(false);
    expect(() => refuseExternal(['random', 'shell:make play'], false)).toThrow(
      "this worker refuses the external engine 'shell:make play' from the queue: start it with --allow-ext to run ext: agents",
    );
    expect(() => refuseExternal(['random', 'shell:make play'], true)).not.toThrow();
    expect(() => refuseExternal(['random', 'minimax:t=50ms,solve=1'], false)).not.toThrow();
  });

  it('keep the commas of their command in a list, as their kind declares', () => {
    expect(splitAgentList(['shell:a,b,random'])).toEqual(['shell:a,b', 'random']);
  });
});

describe('a registry without endgame tables (the browser page’s)', () => {
  const page = new AgentKindRegistry({ kinds: BROWSER_KINDS });

  it('reads solve=1 as the command line does, and refuses to make it', async () => {
    const spec = 'minimax:t=50ms,solve=1';
    expect(page.parse(spec)).toEqual(parseAgentSpec(spec));
    await expect(page.create(spec, {})).rejects.toThrow(
      'solve=1 needs the endgame tables, and this registry has none',
    );
    await expect(page.create('minimax:t=50ms', {})).resolves.toMatchObject({
      name: 'minimax:t=50ms',
    });
  });

  it('knows only its own kinds', () => {
    expect(() => page.parse('ext:python3 engine.py')).toThrow(
      "invalid agent 'ext:python3 engine.py': unknown agent 'ext'; valid agents: random, greedy, minimax:D, minimax:t=200ms, mcts:N, minimax:t=50ms,solve=1",
    );
  });
});

describe('the tokenizer', () => {
  it('splits a spec at its first colon and its argument at every comma, keys and values trimmed', () => {
    expect(specParts(' ext:a:b ')).toEqual({
      text: 'ext:a:b',
      name: 'ext',
      argument: specArgument('a:b'),
    });
    expect(specParts('random')).toEqual({ text: 'random', name: 'random', argument: null });
    expect(specFields('p, sims = 9 ,x=a=b,')).toEqual([
      { text: 'p', key: null, value: 'p' },
      { text: ' sims = 9 ', key: 'sims', value: '9' },
      { text: 'x=a=b', key: 'x', value: 'a=b' },
      { text: '', key: null, value: '' },
    ]);
  });
});

it('makes a parsed spec without parsing its name again', async () => {
  // A parsed spec is plain data: what a worker thread is sent. Its name is the agent's, as parsed.
  const parsed = structuredClone(parseAgentSpec(' mcts:10 '));
  expect(parsed).toEqual({ kind: 'mcts', name: 'mcts:10', iterations: 10 });
  const agent = await createAgent({ ...parsed, name: 'renamed' });
  expect(agent.name).toBe('renamed');
});
