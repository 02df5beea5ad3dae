import { describe, expect, it } from 'vitest';
import { MctsAgent } from '../../agents/mcts.ts';
import { DEFAULT_RULES, legalActions, position, Random } from '../../env/index.ts';
import { randomPositions } from './positions.ts';

const rules = DEFAULT_RULES;

describe('MctsAgent', () => {
  it('plays the move that wins at once', () => {
    // Action 4 captures 3 + 1 and takes player 0 from 22 to 26; action 0 captures nothing.
    const pos = position({
      pits: [2, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0],
      stores: [22, 20],
      toMove: 0,
    });
    const agent = new MctsAgent({ iterations: 300, rules });
    const legal = legalActions(pos, rules);
    for (let seed = 0; seed < 10; seed++) {
      expect(agent.act(pos, { legal, rng: Random.fromSeed(seed), rules })).toBe(4);
    }
  });

  it('is repeatable with the same generator and varies with another', () => {
    const agent = new MctsAgent({ iterations: 200, rules });
    const positions = randomPositions(41, 30, rules);
    const run = (seed: number): number[] =>
      positions.map((pos) =>
        agent.act(pos, { legal: legalActions(pos, rules), rng: Random.fromSeed(seed), rules }),
      );
    expect(run(1)).toEqual(run(1));
    expect(run(1)).not.toEqual(run(2));
  });

  it('works with a single iteration and rejects a bad count', () => {
    const agent = new MctsAgent({ iterations: 1, rules });
    for (const pos of randomPositions(42, 10, rules)) {
      const legal = legalActions(pos, rules);
      expect(legal).toContain(agent.act(pos, { legal, rng: Random.fromSeed(1), rules }));
    }
    expect(() => new MctsAgent({ iterations: 0, rules })).toThrow(/iterations/);
  });
});
