import { describe, expect, it } from 'vitest';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { agentSpecForms, parseAgentSpec, splitAgentList } from '../../agents/spec.ts';

// The kinds that load a network (`policy:`, `az:`, ...), as the command line registers them.
registerNetworkKinds();

// The registry with every kind registered: agents/'s own, then those of models/.
describe('the registry of agent kinds', () => {
  it("lists the forms of models/' kinds after agents/' own", () => {
    const forms = agentSpecForms();
    expect(forms[0]).toBe('random');
    expect(forms.slice(-4)).toEqual([
      'policy:PATH',
      'az:PATH[,sims=N|,t=50ms][,c=1.5][,prior=0.5][,temp=1][,cache=16][,batch=16][,reuse=1][,gumbel=0][,solve=1]',
      'minimax:t=50ms,eval=PATH[,k=16][,cache=16]',
      'minimax:t=50ms,solve=1',
    ]);
    expect(new Set(forms).size).toBe(forms.length);
  });

  it('parses the kinds registered from models/', () => {
    expect(parseAgentSpec('policy:runs/x/best')).toEqual({
      kind: 'policy',
      name: 'policy:runs/x/best',
      path: 'runs/x/best',
    });
    // Options typed: numbers and durations as numbers, 0/1 switches as booleans.
    expect(parseAgentSpec('az:models/pretrained,t=50ms,c=1')).toEqual({
      kind: 'az',
      name: 'az:models/pretrained,t=50ms,c=1',
      path: 'models/pretrained',
      options: {
        t: 50,
        c: 1,
        prior: 0.5,
        temp: 1,
        cache: 16,
        batch: 16,
        reuse: true,
        gumbel: false,
      },
    });
    expect(parseAgentSpec('az:p,sims=9,reuse=0,gumbel=1,solve=0')).toMatchObject({
      options: { sims: 9, reuse: false, gumbel: true },
    });
    expect(parseAgentSpec('az:p,t=50ms,solve=1')).toMatchObject({
      options: { t: 50 },
      solver: { solveMs: 25, searchMs: 25 },
    });
    // One name, two kinds: the minimax with eval=PATH is the network's, the others agents/'s.
    expect(parseAgentSpec('minimax:t=2s,eval=models/pretrained,k=8')).toEqual({
      kind: 'minimax-eval',
      name: 'minimax:t=2s,eval=models/pretrained,k=8',
      t: 2000,
      eval: 'models/pretrained',
      k: 8,
      cache: 16,
    });
    expect(parseAgentSpec('minimax:4')).toEqual({ kind: 'minimax', name: 'minimax:4', depth: 4 });
    expect(() => parseAgentSpec('policy:')).toThrow(/policy needs a path/);
    expect(() => parseAgentSpec('az:,t=5ms')).toThrow(/az needs one policy path first/);
  });

  it('gives every numeric option’s range in its message', () => {
    for (const [spec, why] of [
      ['az:p,sims=1e12', 'sims must be an integer in 1..10000000'],
      ['az:p,sims=0', 'sims must be an integer in 1..10000000'],
      ['az:p,c=-1', 'c must be a number > 0'],
      ['az:p,c=1e3', 'c must be a number > 0'],
      ['az:p,prior=2', 'prior must be a number in [0, 1]'],
      ['az:p,temp=0', 'temp must be a number > 0'],
      ['az:p,cache=30', 'cache must be an integer in 0..24'],
      ['az:p,batch=0', 'batch must be an integer in 1..256'],
      ['az:p,t=0ms', 't must be a positive time up to 600s, such as 50ms or 2s'],
      ['az:p,t=100000000s', 't must be a positive time up to 600s, such as 50ms or 2s'],
      ['minimax:t=601s', 'or t=TIME with TIME a positive time up to 600s'],
      [
        'minimax:t=1e9ms,solve=1',
        "t must be a positive time up to 600s, such as 50ms or 2s, got '1e9ms'",
      ],
      ['minimax:solve=1', 'solve=1 needs a time t=TIME'],
      ['minimax:t=50ms,eval=p,k=-1', 'k must be a number >= 0'],
      ['minimax:65,eval=p', 'the depth must be an integer in 1..64'],
      ['mcts:1e3', 'mcts needs a number of iterations per move in 1..10000000'],
    ]) {
      expect(() => parseAgentSpec(spec as string), spec).toThrow(why as string);
    }
  });

  it('refuses an option given twice, naming it, in every kind that takes options', () => {
    expect(() => parseAgentSpec('minimax:3,eval=/nonexistent,eval=models/pretrained')).toThrow(
      "invalid agent 'minimax:3,eval=/nonexistent,eval=models/pretrained': eval is given twice (eval=/nonexistent and eval=models/pretrained); give each option once",
    );
    expect(() => parseAgentSpec('az:models/pretrained,sims=5,c=1,sims=9')).toThrow(
      'sims is given twice (sims=5 and sims=9)',
    );
  });

  it('lists the valid forms, all kinds’, in a spec error', () => {
    expect(() => parseAgentSpec('az:models/pretrained,sim=4')).toThrow(
      `invalid agent 'az:models/pretrained,sim=4': options: Unrecognized key: "sim"; valid agents: ${agentSpecForms().join(', ')}`,
    );
    expect(() => parseAgentSpec('minimax:4,minimax:6')).toThrow(
      'minimax takes one depth or time, and options after a comma only as minimax:t=50ms,eval=PATH[,k=16][,cache=16] or minimax:t=50ms,solve=1; to name several agents, give each its own --agents entry; valid agents: random, greedy',
    );
  });
});

describe('splitAgentList: each kind says which commas are its own', () => {
  it('splits at commas, but not inside an external command', () => {
    expect(splitAgentList(['random,greedy', 'minimax:4'])).toEqual([
      'random',
      'greedy',
      'minimax:4',
    ]);
    expect(splitAgentList(['ext:python3 -c "print(1,2)",mcts:50'])).toEqual([
      'ext:python3 -c "print(1,2)"',
      'mcts:50',
    ]);
    expect(splitAgentList([' random , greedy ,'])).toEqual(['random', 'greedy']);
  });

  it('keeps the options of network search agents with their agent', () => {
    expect(
      splitAgentList([
        'az:runs/a,t=50ms,c=1,az:runs/b,sims=9,minimax:t=50ms,eval=runs/a,k=8,random',
      ]),
    ).toEqual([
      'az:runs/a,t=50ms,c=1',
      'az:runs/b,sims=9',
      'minimax:t=50ms,eval=runs/a,k=8',
      'random',
    ]);
  });

  it('keeps a mistyped agent apart from its neighbour, so the error names it', () => {
    expect(splitAgentList(['random,greedy,foo'])).toEqual(['random', 'greedy', 'foo']);
    expect(splitAgentList(['minimax:4,mcst:50'])).toEqual(['minimax:4', 'mcst:50']);
    expect(splitAgentList(['az:runs/a,sims=9,greddy'])).toEqual(['az:runs/a,sims=9', 'greddy']);
  });
});
