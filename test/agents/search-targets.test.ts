import { describe, expect, it } from 'vitest';
import {
  completedQ,
  completedQPolicy,
  legalSoftmax,
  mixedValue,
  type RootStatistics,
  transformedCompletedQ,
  visitCountTargets,
} from '../../agents/search-targets.ts';

const close = (actual: ArrayLike<number>, expected: readonly number[]) => {
  expect(actual).toHaveLength(6);
  expected.forEach((e, a) => {
    expect(actual[a], `action ${a}`).toBeCloseTo(e, 12);
  });
};

const sum = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, b) => a + b, 0);

describe('visit-count targets', () => {
  // Actions 0, 2, 3, 4 legal; 1 and 5 illegal, 5 with stray visits that must not count.
  const legal = 0b011101;
  const visits = [10, 0, 30, 0, 60, 5];

  it('normalises the visits over the legal actions, exactly 0 elsewhere', () => {
    const target = visitCountTargets(visits, legal);
    close(target, [0.1, 0, 0.3, 0, 0.6, 0]);
    expect([target[1], target[5]]).toEqual([0, 0]);
    expect(sum(target)).toBeCloseTo(1, 15);
  });

  it('sharpens with a temperature, and puts everything on the most visited at 0', () => {
    close(visitCountTargets(visits, legal, 0.5), [100 / 4600, 0, 900 / 4600, 0, 3600 / 4600, 0]);
    expect(Array.from(visitCountTargets(visits, legal, 0))).toEqual([0, 0, 0, 0, 1, 0]);
    expect(Array.from(visitCountTargets([4, 9, 4, 9, 1, 9], 0b001111, 0))).toEqual([
      0, 0.5, 0, 0.5, 0, 0,
    ]);
    // Huge counts and a tiny temperature stay finite.
    close(visitCountTargets([1e6, 1e6, 0, 0, 0, 0], 0b11, 0.01), [0.5, 0.5, 0, 0, 0, 0]);
  });

  it('is uniform over the legal actions without visits, and refuses bad input', () => {
    expect(Array.from(visitCountTargets([0, 0, 0, 0, 0, 0], 0b100110))).toEqual([
      0,
      1 / 3,
      1 / 3,
      0,
      0,
      1 / 3,
    ]);
    expect(() => visitCountTargets(visits, 0)).toThrow('non-empty 6-bit mask, got 0');
    expect(() => visitCountTargets(visits, legal, -1)).toThrow('temperature');
    expect(() => visitCountTargets([-1, 0, 0, 0, 0, 0], 1)).toThrow('visits must be >= 0');
  });
});

describe('Gumbel completed-Q policy improvement (mctx semantics)', () => {
  // Legal 0, 1, 2; priors softmax(logits) = 0.25, 0.5, 0.25; actions 0 and 2 visited.
  // Action 5 is illegal, with logits, visits and q that must be ignored.
  const root: RootStatistics = {
    legalMask: 0b000111,
    logits: [0, Math.log(2), 0, 0, 0, 100],
    visits: [2, 0, 1, 0, 0, 7],
    q: [0.5, 0.9, -0.2, 0, 0, 9],
    rawValue: 0.1,
  };

  it('mixes the raw value with the prior-weighted Q of the visited actions', () => {
    // (0.1 + 3 x (0.25 x 0.5 + 0.25 x -0.2) / (0.25 + 0.25)) / (3 + 1)
    expect(mixedValue(root)).toBeCloseTo(0.1375, 12);
    expect(mixedValue({ ...root, visits: [0, 0, 0, 0, 0, 0] })).toBe(0.1);
  });

  it('completes the Q-values with the mixed value, 0 on illegal actions', () => {
    close(completedQ(root), [0.5, 0.1375, -0.2, 0, 0, 0]);
  });

  it('rescales by min and max and scales by (50 + max visits) x 0.1', () => {
    // min -0.2, max 0.5: rescaled 1, 0.3375 / 0.7, 0; scale (50 + 2) x 0.1 = 5.2.
    close(transformedCompletedQ(root), [5.2, (0.3375 / 0.7) * 5.2, 0, 0, 0, 0]);
    close(
      transformedCompletedQ(root, { rescale: false, valueScale: 1, maxVisitInit: 0 }),
      [1, 0.275, -0.4, 0, 0, 0],
    );
  });

  it('improves the policy: softmax(logits + sigma(completed Q)) over the legal actions', () => {
    const scores = [5.2, Math.log(2) + (0.3375 / 0.7) * 5.2, 0];
    const total = scores.reduce((s, x) => s + Math.exp(x), 0);
    const policy = completedQPolicy(root);
    close(policy, [...scores.map((x) => Math.exp(x) / total), 0, 0, 0]);
    // About 0.877, 0.119, 0.005: the best-valued action gains on the prior's favourite.
    expect(policy[0]).toBeCloseTo(0.8765, 4);
    expect(sum(policy)).toBeCloseTo(1, 15);
    expect(policy[5]).toBe(0);
  });

  it('is the prior when no action was visited (all completed Q equal)', () => {
    const prior = legalSoftmax(root.logits, root.legalMask);
    close(completedQPolicy({ ...root, visits: [0, 0, 0, 0, 0, 0] }), Array.from(prior));
    close(prior, [0.25, 0.5, 0.25, 0, 0, 0]);
  });
});
