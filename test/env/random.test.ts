import { describe, expect, it } from 'vitest';
import {
  Random,
  sampleDirichlet,
  sampleGamma,
  sampleGumbel,
  sampleIndex,
} from '../../env/index.ts';

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const draws = (n: number, draw: () => number): number[] => Array.from({ length: n }, draw);

describe('the samplers beside Random', () => {
  it('Gamma(alpha) has mean alpha and variance alpha, below and above 1', () => {
    for (const alpha of [0.3, 1, 4]) {
      const rng = Random.fromSeed(alpha * 10);
      const xs = draws(20_000, () => sampleGamma(rng, alpha));
      const m = mean(xs);
      const variance = mean(xs.map((x) => (x - m) ** 2));
      expect(Math.min(...xs)).toBeGreaterThan(0);
      expect(m).toBeCloseTo(alpha, 1);
      expect(variance / alpha).toBeGreaterThan(0.9);
      expect(variance / alpha).toBeLessThan(1.1);
    }
  });

  it('a Dirichlet sample is a distribution with the symmetric mean 1/k', () => {
    const rng = Random.fromSeed(1);
    const firsts: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const sample = sampleDirichlet(rng, 0.5, new Float64Array(4));
      expect(sample.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      expect(Math.min(...sample)).toBeGreaterThanOrEqual(0);
      firsts.push(sample[0] as number);
    }
    expect(mean(firsts)).toBeCloseTo(0.25, 1);
  });

  it('Gumbel samples have the Gumbel mean (Euler-Mascheroni constant)', () => {
    const rng = Random.fromSeed(2);
    const xs = draws(50_000, () => sampleGumbel(rng));
    expect(xs.every(Number.isFinite)).toBe(true);
    expect(mean(xs)).toBeCloseTo(0.5772, 1);
  });

  it('sampleIndex draws by the probabilities and never an entry of 0', () => {
    const rng = Random.fromSeed(3);
    const probabilities = [0, 0.5, 0, 0.25, 0.25, 0];
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 20_000; i++) {
      const a = sampleIndex(rng, probabilities);
      counts[a] = (counts[a] as number) + 1;
    }
    expect([counts[0], counts[2], counts[5]]).toEqual([0, 0, 0]);
    expect((counts[1] as number) / 20_000).toBeCloseTo(0.5, 1);
    expect((counts[3] as number) / 20_000).toBeCloseTo(0.25, 1);
    expect(sampleIndex(rng, [0, 0])).toBe(-1);
    // Rounding short of 1 cannot fall off the end: the last positive entry takes the rest.
    expect(sampleIndex({ next: () => 0.9999999 } as Random, [0.3, 0.3, 0.3, 0])).toBe(2);
  });

  it('the same seed gives the same draws', () => {
    const run = (seed: number) => {
      const rng = Random.fromSeed(seed);
      return [
        sampleGamma(rng, 0.3),
        sampleGumbel(rng),
        ...sampleDirichlet(rng, 1, new Float64Array(3)),
      ];
    };
    expect(run(9)).toEqual(run(9));
    expect(run(9)).not.toEqual(run(10));
  });

  it('seeds 2^32 apart, and negative seeds, have streams of their own', () => {
    const firstDraws = (seed: number): number[] => {
      const rng = Random.fromSeed(seed);
      return Array.from({ length: 8 }, () => rng.nextUint32());
    };
    const seeds = [
      0,
      1,
      2 ** 32 - 1,
      2 ** 32,
      2 ** 32 + 1,
      -1,
      -(2 ** 32) + 1,
      2 ** 53 - 1,
      -(2 ** 53 - 1),
    ];
    const streams = new Set(seeds.map((seed) => firstDraws(seed).join(',')));
    expect(streams.size).toBe(seeds.length);
    expect(firstDraws(2 ** 32 + 1)).toEqual(firstDraws(2 ** 32 + 1));
  });

  it('refuses a number seed that is not a safe integer, naming it', () => {
    for (const seed of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => Random.fromSeed(seed)).toThrow(
        new RangeError(
          `seed must be an integer between -(2^53 - 1) and 2^53 - 1, got ${String(seed)}`,
        ),
      );
    }
  });
});
