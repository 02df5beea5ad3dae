import { describe, expect, it } from 'vitest';
import type { Evaluator } from '../../agents/evaluator.ts';
import { type PuctResult, PuctSearch } from '../../agents/puct/search.ts';
import { core, DEFAULT_RULES, ruleCode } from '../../env/index.ts';
import { randomPositions } from './positions.ts';

const rules = DEFAULT_RULES;
const { ACTIONS, STATE_SIZE, STORE_0, TO_MOVE, legalMask, playInPlace } = core;

/**
 * Priors that differ by position (each action's share grows with its pit's
 * seeds) and the store difference as the value; counts the positions it is given.
 */
class ShapedEvaluator implements Evaluator {
  positions = 0;

  evaluate(
    states: Uint8Array,
    masks: Uint8Array,
    count: number,
    priors: Float32Array,
    values: Float64Array,
  ): void {
    this.positions += count;
    for (let i = 0; i < count; i++) {
      const s = i * STATE_SIZE;
      const mover = states[s + TO_MOVE] as number;
      const mask = masks[i] as number;
      let sum = 0;
      for (let a = 0; a < ACTIONS; a++) {
        const w = mask & (1 << a) ? 1 + (states[s + mover * 6 + a] as number) : 0;
        priors[i * ACTIONS + a] = w;
        sum += w;
      }
      for (let a = 0; a < ACTIONS; a++) {
        priors[i * ACTIONS + a] = (priors[i * ACTIONS + a] as number) / sum;
      }
      const diff =
        (states[s + STORE_0 + mover] as number) - (states[s + STORE_0 + 1 - mover] as number);
      values[i] = Math.max(-1, Math.min(1, diff / 24));
    }
  }
}

/** A search stepped one leaf at a time, its leaves evaluated by `evaluator` unless recalled. */
function stepped(search: PuctSearch, evaluator: Evaluator, state: Uint8Array): PuctResult {
  search.begin(state);
  while (search.simulationsDone < 40 && !search.rootSolved) {
    if (search.selectLeaves(1) === 0) continue;
    if (!search.leafRecalled(0)) {
      evaluator.evaluate(
        search.leafStates,
        search.leafMasks,
        1,
        search.leafPriors,
        search.leafValues,
      );
    }
    search.completeLeaves();
  }
  return search.result();
}

const same = (a: PuctResult, b: PuctResult): void => {
  expect([...a.visits]).toEqual([...b.visits]);
  expect([...a.q]).toEqual([...b.q]);
  expect([...a.priors]).toEqual([...b.priors]);
  expect(a.value).toBe(b.value);
  expect(a.rawValue).toBe(b.rawValue);
  expect(a.bestActions).toEqual(b.bestActions);
};

describe('a search that remembers its last evaluations', () => {
  it('searches each move of a game as a fresh search does, with far fewer leaves to evaluate', () => {
    const code = ruleCode(rules);
    let recalling = 0;
    let evaluating = 0;
    for (const start of randomPositions(5, 4, rules)) {
      const fresh = new ShapedEvaluator();
      const remembering = new ShapedEvaluator();
      const plain = new PuctSearch(fresh, { rules, priorWeight: 1 });
      const memory = new PuctSearch(remembering, {
        rules,
        priorWeight: 1,
        rememberEvaluations: true,
      });
      const state = start.toState();
      while (legalMask(state, code) !== 0) {
        const expected = stepped(plain, fresh, state);
        same(stepped(memory, remembering, state), expected);
        playInPlace(state, expected.bestActions[0] as number, code);
      }
      evaluating += fresh.positions;
      recalling += remembering.positions;
    }
    // Its next root is a child of the last, searched along its most visited move.
    expect(recalling).toBeLessThan(0.8 * evaluating);
  });

  it('keeps a recalled evaluation whatever the evaluator writes over it (search with its own evaluator)', () => {
    const code = ruleCode(rules);
    const [start] = randomPositions(9, 1, rules);
    const state = (start ?? randomPositions(9, 1, rules)[0])?.toState() as Uint8Array;
    const plain = new PuctSearch(new ShapedEvaluator(), { rules });
    const memory = new PuctSearch(new ShapedEvaluator(), { rules, rememberEvaluations: true });
    for (let move = 0; move < 12 && legalMask(state, code) !== 0; move++) {
      const expected = plain.search(state, { simulations: 60 });
      same(memory.search(state, { simulations: 60 }), expected);
      playInPlace(state, expected.bestActions[0] as number, code);
    }
  });

  it('recalls nothing after reset (a new game), and refuses to remember while reusing the tree', () => {
    const [start] = randomPositions(3, 1, rules);
    const state = start?.toState() as Uint8Array;
    const evaluator = new ShapedEvaluator();
    const search = new PuctSearch(evaluator, { rules, rememberEvaluations: true });
    stepped(search, evaluator, state);
    const once = evaluator.positions;
    search.reset();
    stepped(search, evaluator, state);
    expect(evaluator.positions).toBe(2 * once);
    // The same position again right after: its root and everything below it are recalled.
    stepped(search, evaluator, state);
    expect(evaluator.positions).toBeLessThan(2 * once + once / 4);
    expect(
      () => new PuctSearch(evaluator, { rules, rememberEvaluations: true, reuseTree: true }),
    ).toThrow(/reuses the tree or remembers its evaluations, not both/);
  });
});
