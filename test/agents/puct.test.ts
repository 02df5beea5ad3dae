import { describe, expect, it } from 'vitest';
import { CachedEvaluator } from '../../agents/evaluation-cache.ts';
import { type Evaluator, StoreDifferenceEvaluator } from '../../agents/evaluator.ts';
import { MinimaxSearch, PROVEN } from '../../agents/minimax-search.ts';
import { PuctAgent } from '../../agents/puct/agent.ts';
import { PuctSearch } from '../../agents/puct/search.ts';
import {
  DEFAULT_RULES,
  legalActions,
  outcome,
  type Position,
  playMove,
  position,
  Random,
} from '../../env/index.ts';
import { endgame, randomPositions, solveActions } from './positions.ts';

const rules = DEFAULT_RULES;

/** Player 0 to move: action 4 captures 3 + 1 and reaches 26, a win at once. */
const winAvailable = position({
  pits: [2, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0],
  stores: [22, 20],
  toMove: 0,
});

function puct(evaluator: Evaluator = new StoreDifferenceEvaluator()): PuctSearch {
  return new PuctSearch(evaluator, { rules });
}

/** Endgames whose every action has a known exact result, with both kinds of action present. */
function decidedEndgames(
  seed: number,
  count: number,
  want: (results: number[]) => boolean,
): { pos: Position; exact: Map<number, number> }[] {
  const rng = Random.fromSeed(seed);
  const out: { pos: Position; exact: Map<number, number> }[] = [];
  while (out.length < count) {
    const pos = endgame(rng, 9, rules);
    if (pos === null || legalActions(pos, rules).length < 2) continue;
    const exact = solveActions(pos, rules);
    if (exact === null || !want([...exact.values()])) continue;
    out.push({ pos, exact });
  }
  return out;
}

describe('PuctSearch', () => {
  it('proves a win in one, plays it, and stops early', () => {
    const result = puct().search(winAvailable.toState(), { simulations: 1000 });
    expect(result.solved).toBe(true);
    expect(result.value).toBe(1);
    expect(result.bestActions).toEqual([4]);
    expect(result.simulations).toBeLessThan(1000);
  });

  it('finds forced wins in small endgames', () => {
    const search = puct();
    for (const { pos, exact } of decidedEndgames(
      11,
      15,
      (r) => r.includes(1) && r.some((x) => x !== 1),
    )) {
      const result = search.search(pos.toState(), { simulations: 3000 });
      for (const a of result.bestActions) expect(exact.get(a), `${pos.pits}`).toBe(1);
    }
  });

  it('avoids forced losses in small endgames', () => {
    const search = puct();
    for (const { pos, exact } of decidedEndgames(
      12,
      15,
      (r) => r.includes(-1) && r.some((x) => x !== -1),
    )) {
      const result = search.search(pos.toState(), { simulations: 3000 });
      for (const a of result.bestActions) expect(exact.get(a), `${pos.pits}`).not.toBe(-1);
    }
  });

  it('with uniform priors and exact terminal values agrees with minimax on short tactics', () => {
    // Midgame positions where a depth-5 alpha-beta search proves a win for the mover.
    const minimax = new MinimaxSearch({ rules, ttBits: 0 });
    const search = puct();
    let compared = 0;
    for (const pos of randomPositions(21, 600, rules)) {
      if (compared === 12) break;
      const proven = minimax.search(pos.toState(), { depth: 5 });
      if (proven.value <= PROVEN || legalActions(pos, rules).length < 2) continue;
      compared++;
      const result = search.search(pos.toState(), { simulations: 4000 });
      expect(result.solved).toBe(true);
      expect(result.value).toBe(1);
      for (const a of result.bestActions) {
        // Each action PUCT plays wins by force within the same horizon.
        const child = playMove(pos, a, rules).position;
        const end = outcome(child, rules);
        if (end !== null) {
          expect(end.winner).toBe(pos.toMove);
          continue;
        }
        const reply = new MinimaxSearch({ rules, ttBits: 0 }).search(child.toState(), {
          depth: 4,
        });
        expect(reply.value).toBeLessThan(-PROVEN);
      }
    }
    expect(compared).toBe(12);
  });

  it('returns visit-count targets that sum to 1 over the legal actions and are 0 elsewhere', () => {
    const search = puct();
    let withIllegal = 0;
    for (const pos of randomPositions(31, 30, rules)) {
      const result = search.search(pos.toState(), { simulations: 60 });
      const legal = legalActions(pos, rules);
      if (legal.length < 6) withIllegal++;
      let sum = 0;
      for (let a = 0; a < 6; a++) {
        if (legal.includes(a)) {
          expect(result.legalMask & (1 << a)).not.toBe(0);
          sum += result.policy[a] as number;
        } else {
          expect(result.policy[a]).toBe(0);
          expect(result.visits[a]).toBe(0);
          expect(result.legalMask & (1 << a)).toBe(0);
        }
      }
      expect(sum).toBeCloseTo(1, 12);
      // Every simulation after the root's expansion visits one root child (unless solved early).
      if (!result.solved) {
        expect(result.visits.reduce((x, y) => x + y, 0)).toBe(result.simulations - 1);
      }
    }
    expect(withIllegal).toBeGreaterThan(0);
  });

  it('is deterministic: same seed, same search and move; root noise only when asked', () => {
    const positions = randomPositions(41, 10, rules);
    const play = (seed: number, noise: boolean) =>
      positions.map((pos) => {
        const agent = new PuctAgent(new StoreDifferenceEvaluator(), {
          name: 'puct',
          rules,
          simulations: 200,
          ...(noise ? { rootNoise: { alpha: 0.3, fraction: 0.25 } } : {}),
        });
        const action = agent.act(pos, {
          legal: legalActions(pos, rules),
          rng: Random.fromSeed(seed),
          rules,
        });
        return { action, visits: [...(agent.lastSearch?.visits ?? [])] };
      });
    expect(play(1, false)).toEqual(play(1, false));
    expect(play(1, true)).toEqual(play(1, true));
    // Without noise the visits do not depend on the seed; with noise they do.
    expect(play(1, false).map((r) => r.visits)).toEqual(play(2, false).map((r) => r.visits));
    expect(play(1, true).map((r) => r.visits)).not.toEqual(play(2, true).map((r) => r.visits));
  });

  it('gives the same search through an evaluation cache, with hits on a second search', () => {
    const cached = new CachedEvaluator(new StoreDifferenceEvaluator(), 12);
    const plain = puct();
    const withCache = puct(cached);
    for (const pos of randomPositions(51, 10, rules)) {
      const a = plain.search(pos.toState(), { simulations: 300 });
      const b = withCache.search(pos.toState(), { simulations: 300 });
      expect([...b.visits]).toEqual([...a.visits]);
      expect(b.value).toBe(a.value);
    }
    const before = cached.hits;
    const pos = randomPositions(52, 1, rules)[0] as Position;
    withCache.search(pos.toState(), { simulations: 300 });
    withCache.search(pos.toState(), { simulations: 300 });
    expect(cached.hits - before).toBeGreaterThan(200);
  });

  it('reuses the subtree of a position it has searched, and forgets it on reset', () => {
    const reusing = new PuctSearch(new StoreDifferenceEvaluator(), { rules, reuseTree: true });
    const fresh = puct();
    const total = (r: { visits: Float64Array }) => r.visits.reduce((x, y) => x + y, 0);
    let reused = 0;
    for (const pos of randomPositions(71, 10, rules)) {
      const first = reusing.search(pos.toState(), { simulations: 400 });
      // The position after the most visited move (the opponent to move): a child of the root.
      const next = playMove(pos, first.bestActions[0] as number, rules).position;
      if (first.solved || outcome(next, rules) !== null || legalActions(next, rules).length < 2) {
        continue;
      }
      const again = reusing.search(next.toState(), { simulations: 100 });
      const plain = fresh.search(next.toState(), { simulations: 100 });
      if (again.solved || plain.solved) continue;
      reused++;
      // The old subtree's visits are kept: more than the 99 a fresh search gives its children.
      expect(total(plain)).toBe(99);
      expect(total(again)).toBeGreaterThan(99);
      reusing.reset();
      const afterReset = reusing.search(next.toState(), { simulations: 100 });
      expect([...afterReset.visits]).toEqual([...plain.visits]);
      reusing.reset();
    }
    expect(reused).toBeGreaterThan(3);
  });

  it('refuses a finished game and a missing budget', () => {
    const finished = position({
      pits: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      stores: [23, 24],
      toMove: 0,
    });
    expect(() => puct().search(finished.toState(), { simulations: 10 })).toThrow(/finished game/);
    expect(() => puct().search(winAvailable.toState(), {})).toThrow(/simulations or a time/);
  });
});

describe('PuctSearch, stepped by a driver', () => {
  it('gives the same result as search() when the driver evaluates the leaves itself', () => {
    const evaluator = new StoreDifferenceEvaluator();
    for (const pos of randomPositions(41, 12, rules)) {
      const state = pos.toState();
      const direct = new PuctSearch(evaluator, { rules, batchSize: 4 }).search(state, {
        simulations: 200,
      });
      // The stepped search's own evaluator must never be called.
      const stepped = new PuctSearch(
        {
          evaluate() {
            throw new Error('the driver evaluates');
          },
        },
        { rules, batchSize: 4 },
      );
      stepped.begin(state);
      while (stepped.simulationsDone < 200 && !stepped.rootSolved) {
        const waiting = stepped.selectLeaves(Math.min(4, 200 - stepped.simulationsDone));
        if (waiting === 0) continue;
        evaluator.evaluate(
          stepped.leafStates,
          stepped.leafMasks,
          waiting,
          stepped.leafPriors,
          stepped.leafValues,
        );
        stepped.completeLeaves();
      }
      const result = stepped.result();
      expect(result.simulations).toBe(direct.simulations);
      expect([...result.visits]).toEqual([...direct.visits]);
      expect([...result.q]).toEqual([...direct.q]);
      expect(result.bestActions).toEqual(direct.bestActions);
    }
  });

  it('refuses to select again before the waiting leaves are completed, and a result before the root is expanded', () => {
    const search = new PuctSearch(new StoreDifferenceEvaluator(), { rules });
    search.begin(winAvailable.toState());
    expect(() => search.result()).toThrow(/not been expanded/);
    expect(search.selectLeaves(1)).toBe(1);
    expect(() => search.selectLeaves(1)).toThrow(/not completed/);
  });
});

describe('PUCT memory', () => {
  it('stops when its tree is full, whatever its budget', () => {
    const state = randomPositions(5, 1, rules)[0]?.toState() as Uint8Array;
    const bounded = new PuctSearch(new StoreDifferenceEvaluator(), { rules, maxTreeNodes: 600 });
    const result = bounded.search(state, { simulations: 100_000 });
    // A simulation adds at most one leaf's children (six at most, fewer near the end, none at a
    // finished game): between 100 and 600 simulations fill 600 nodes, far from the budget.
    expect(result.simulations).toBeGreaterThan(90);
    expect(result.simulations).toBeLessThan(600);
    const unbounded = puct().search(state, { simulations: 500 });
    expect(unbounded.simulations).toBe(500);
  });
});
