import { describe, expect, it } from 'vitest';
import { GreedyAgent } from '../../agents/greedy.ts';
import { MinimaxAgent } from '../../agents/minimax.ts';
import { RandomAgent } from '../../agents/random.ts';
import {
  DEFAULT_RULES,
  initialPosition,
  legalActions,
  playMove,
  position,
  Random,
} from '../../env/index.ts';
import { randomPositions } from './positions.ts';

const rules = DEFAULT_RULES;

function counts(pick: () => number, times: number): Map<number, number> {
  const seen = new Map<number, number>();
  for (let i = 0; i < times; i++) {
    const a = pick();
    seen.set(a, (seen.get(a) ?? 0) + 1);
  }
  return seen;
}

describe('RandomAgent', () => {
  it('is uniform over the legal actions and repeatable with a seed', () => {
    const agent = new RandomAgent();
    const pos = initialPosition();
    const legal = legalActions(pos, rules);
    const rng = Random.fromSeed(1);
    const seen = counts(() => agent.act(pos, { legal, rng, rules }), 6000);
    for (const a of legal) expect(seen.get(a)).toBeGreaterThan(850);
    const again = (seed: number): number[] => {
      const r = Random.fromSeed(seed);
      return Array.from({ length: 20 }, () => agent.act(pos, { legal, rng: r, rules }));
    };
    expect(again(5)).toEqual(again(5));
  });
});

describe('GreedyAgent', () => {
  it('takes the largest immediate capture', () => {
    const agent = new GreedyAgent();
    const rng = Random.fromSeed(1);
    for (const pos of randomPositions(21, 80, rules)) {
      const legal = legalActions(pos, rules);
      const gains = legal.map((a) => playMove(pos, a, rules).report.captured);
      const chosen = agent.act(pos, { legal, rng, rules });
      expect(gains[legal.indexOf(chosen)]).toBe(Math.max(...gains));
    }
  });

  it('breaks ties at random among the best', () => {
    // Neither of player 0's moves captures anything: both tie at a gain of 0.
    const agent = new GreedyAgent();
    const pos = position({
      pits: [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1],
      stores: [22, 22],
      toMove: 0,
    });
    const legal = legalActions(pos, rules);
    const gains = legal.map((a) => playMove(pos, a, rules).report.captured);
    const best = legal.filter((_, i) => gains[i] === Math.max(...gains));
    expect(best.length).toBeGreaterThan(1);
    const rng = Random.fromSeed(3);
    const seen = counts(() => agent.act(pos, { legal, rng, rules }), 400);
    expect([...seen.keys()].sort()).toEqual([...best].sort());
  });
});

describe('MinimaxAgent', () => {
  it('picks at random among exactly tied best actions, never another', () => {
    let tested = 0;
    for (const pos of randomPositions(31, 120, rules)) {
      const agent = new MinimaxAgent({ rules, depth: 3 });
      const legal = legalActions(pos, rules);
      const rng = Random.fromSeed(4);
      agent.act(pos, { legal, rng, rules });
      const best = agent.lastSearch?.bestActions ?? [];
      if (best.length < 2) continue;
      tested++;
      const seen = counts(() => agent.act(pos, { legal, rng, rules }), 200);
      expect([...seen.keys()].sort()).toEqual([...best].sort());
    }
    expect(tested).toBeGreaterThan(3);
  });

  it('is repeatable with the same generator', () => {
    const agent = new MinimaxAgent({ rules, depth: 4 });
    for (const pos of randomPositions(32, 20, rules)) {
      const legal = legalActions(pos, rules);
      const a = agent.act(pos, { legal, rng: Random.fromSeed(9), rules });
      const b = new MinimaxAgent({ rules, depth: 4 }).act(pos, {
        legal,
        rng: Random.fromSeed(9),
        rules,
      });
      expect(a).toBe(b);
    }
  });
});
