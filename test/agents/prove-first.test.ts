import { describe, expect, it } from 'vitest';
import type { Agent } from '../../agents/agent.ts';
import { ProveFirstAgent } from '../../agents/prove-first.ts';
import { DEFAULT_RULES, initialPosition, legalActions, position, Random } from '../../env/index.ts';

const rules = DEFAULT_RULES;

/** An inner agent that records being asked and plays its first legal action. */
function recording(): Agent & { asked: number } {
  return {
    name: 'inner',
    asked: 0,
    act(_pos, ctx) {
      this.asked++;
      return ctx.legal[0] as number;
    },
  };
}

describe('ProveFirstAgent', () => {
  it('plays a proven win itself and leaves open positions to the inner agent', () => {
    const inner = recording();
    const agent = new ProveFirstAgent(inner, 20, { rules, name: 'p' });
    // Action 4 captures 3 + 1 and reaches 26 seeds: a win at once; action 0 does not.
    const won = position({
      pits: [2, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0],
      stores: [22, 20],
      toMove: 0,
    });
    const ctx = (p: typeof won) => ({
      legal: legalActions(p, rules),
      rng: Random.fromSeed(1),
      rules,
    });
    expect(agent.act(won, ctx(won))).toBe(4);
    expect(inner.asked).toBe(0);
    expect(agent.proven).toBe(1);
    const start = initialPosition();
    expect(agent.act(start, ctx(start))).toBe(0);
    expect(inner.asked).toBe(1);
  });

  it('rejects a proving time that is not positive', () => {
    expect(() => new ProveFirstAgent(recording(), 0, { rules, name: 'p' })).toThrow(/proving time/);
  });
});
