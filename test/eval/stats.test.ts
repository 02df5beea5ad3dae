import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../eval/stats.ts';

describe('wilsonInterval', () => {
  it('matches the textbook formula', () => {
    // Wilson (1927) for 50/100 and 95%: 0.4038..0.5962.
    const [lo, hi] = wilsonInterval(50, 100);
    expect(lo).toBeCloseTo(0.4038, 4);
    expect(hi).toBeCloseTo(0.5962, 4);
    // 0 of 10 and 10 of 10: one end at the boundary.
    expect(wilsonInterval(0, 10)[0]).toBe(0);
    expect(wilsonInterval(0, 10)[1]).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(10, 10)[1]).toBeCloseTo(1, 12);
  });

  it('contains the score, narrows with more games, and is [0, 1] without games', () => {
    for (const [points, games] of [
      [3.5, 7],
      [80, 100],
      [800, 1000],
    ] as const) {
      const [lo, hi] = wilsonInterval(points, games);
      expect(lo).toBeLessThan(points / games);
      expect(hi).toBeGreaterThan(points / games);
    }
    const width = (n: number): number => {
      const [lo, hi] = wilsonInterval(0.7 * n, n);
      return hi - lo;
    };
    expect(width(1000)).toBeLessThan(width(100));
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });
});
