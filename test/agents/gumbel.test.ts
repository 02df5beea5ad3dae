import { describe, expect, it } from 'vitest';
import { StoreDifferenceEvaluator } from '../../agents/evaluator.ts';
import { consideredVisitSequence, gumbelSearch } from '../../agents/puct/gumbel.ts';
import { PuctSearch } from '../../agents/puct/search.ts';
import { DEFAULT_RULES, initialPosition, position, Random } from '../../env/index.ts';

const rules = DEFAULT_RULES;
const search = () => new PuctSearch(new StoreDifferenceEvaluator(), { rules, priorWeight: 1 });
const start = initialPosition().toState();

describe('Sequential Halving schedule (mctx get_sequence_of_considered_visits)', () => {
  it('visits every considered action once per round, then halves them', () => {
    // 4 actions, 8 simulations: 2 phases; 1 visit each, then 2 more for the best 2.
    expect(consideredVisitSequence(4, 8)).toEqual([0, 0, 0, 0, 1, 1, 2, 2]);
    // 6 actions, 6 simulations: one visit each, nothing left to halve with.
    expect(consideredVisitSequence(6, 6)).toEqual([0, 0, 0, 0, 0, 0]);
    // 2 actions: the pair alternates.
    expect(consideredVisitSequence(2, 5)).toEqual([0, 0, 1, 1, 2]);
    // A single action takes every visit.
    expect(consideredVisitSequence(1, 4)).toEqual([0, 1, 2, 3]);
    expect(() => consideredVisitSequence(4, -1)).toThrow('simulations');
  });
});

describe('gumbelSearch', () => {
  it('spends the budget as Sequential Halving does, and returns a proper improved policy', () => {
    const result = gumbelSearch(search(), start, { simulations: 24 }, Random.fromSeed(3));
    // m = 6, 3 phases: 1 visit each; 2 more for the best 3; then the best 2 share the rest.
    expect([...result.search.visits].sort((a, b) => b - a)).toEqual([9, 9, 3, 1, 1, 1]);
    expect(result.search.simulations).toBe(25); // the root's expansion, then 24
    expect(result.search.visits[result.action]).toBe(9);
    expect(result.policy.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(Math.min(...result.policy)).toBeGreaterThan(0); // all six legal at the start
  });

  it('with fewer simulations than actions, visits the top ones by Gumbel noise (uniform priors)', () => {
    const result = gumbelSearch(search(), start, { simulations: 4 }, Random.fromSeed(8));
    const byNoise = [0, 1, 2, 3, 4, 5].sort(
      (a, b) => (result.gumbel[b] as number) - (result.gumbel[a] as number),
    );
    const visited = [0, 1, 2, 3, 4, 5].filter((a) => (result.search.visits[a] as number) > 0);
    expect(visited.sort()).toEqual(byNoise.slice(0, 4).sort());
    expect(visited).toContain(result.action);
  });

  it('is a function of the seed', () => {
    const run = (seed: number) => {
      const r = gumbelSearch(search(), start, { simulations: 16 }, Random.fromSeed(seed));
      return [r.action, [...r.policy], [...r.search.visits], [...r.gumbel]];
    };
    expect(run(5)).toEqual(run(5));
    const differing = [6, 7, 8, 9].filter(
      (seed) => JSON.stringify(run(seed)) !== JSON.stringify(run(5)),
    );
    expect(differing.length).toBeGreaterThan(0);
  });

  it('plays a win in one, illegal actions exactly 0 in the policy', () => {
    // Player 0 to move, actions 0 and 4 legal: 4 captures 3 + 1 and reaches 26.
    const win = position({
      pits: [2, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0],
      stores: [22, 20],
      toMove: 0,
    });
    for (const seed of [1, 2, 3]) {
      const result = gumbelSearch(
        search(),
        win.toState(),
        { simulations: 8 },
        Random.fromSeed(seed),
      );
      expect(result.action).toBe(4);
      expect(result.search.solved).toBe(true);
      expect([1, 2, 3, 5].map((a) => result.policy[a])).toEqual([0, 0, 0, 0]);
      expect(result.policy[4]).toBeGreaterThan(result.policy[0] as number);
    }
  });

  it('refuses bad options', () => {
    expect(() => gumbelSearch(search(), start, { simulations: 0 }, Random.fromSeed(1))).toThrow(
      'positive integer',
    );
    expect(() =>
      gumbelSearch(search(), start, { simulations: 4, gumbelScale: -1 }, Random.fromSeed(1)),
    ).toThrow('gumbelScale');
  });
});

describe('PuctSearch with a root chooser', () => {
  it('sends every simulation after the root expansion to the chosen action, and reports raw value and priors', () => {
    // Player 0 leads its store by 6: the store-difference evaluator's raw value is 6 / 24.
    const pos = position({ pits: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 2], stores: [6, 0], toMove: 0 });
    const seen: number[] = [];
    const result = new PuctSearch(new StoreDifferenceEvaluator(), {
      rules,
      priorWeight: 0.5,
    }).search(pos.toState(), { simulations: 11 }, null, (view) => {
      seen.push(view.simulation);
      expect(view.rawValue).toBe(0.25);
      return 3;
    });
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([...result.visits]).toEqual([0, 0, 0, 10, 0, 0]);
    expect(result.rawValue).toBe(0.25);
    for (const a of [0, 1, 2, 3, 4, 5]) expect(result.priors[a]).toBeCloseTo(1 / 6, 6);
    expect(() =>
      new PuctSearch(new StoreDifferenceEvaluator(), { rules }).search(
        pos.toState(),
        { simulations: 3 },
        null,
        () => 7,
      ),
    ).toThrow('the root chooser picked action 7, which is not legal here');
  });
});
