import { describe, expect, it } from 'vitest';
import { Random } from '../../env/index.ts';
import { fitElo, type PairingScore } from '../../eval/elo.ts';

const expectedScore = (ra: number, rb: number): number => 1 / (1 + 10 ** ((rb - ra) / 400));
const truth = new Map([
  ['random', 0],
  ['greedy', 180],
  ['minimax:2', 420],
  ['mcts:500', 510],
  ['minimax:6', 800],
]);
const names = [...truth.keys()];

function roundRobin(
  score: (a: string, b: string, games: number) => number,
  games: number,
): PairingScore[] {
  const out: PairingScore[] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const a = names[i] as string;
      const b = names[j] as string;
      out.push({ a, b, games, points: score(a, b, games) });
    }
  }
  return out;
}

describe('fitElo', () => {
  it('recovers the ratings that generated an exact table', () => {
    const table = roundRobin(
      (a, b, games) => games * expectedScore(truth.get(a) as number, truth.get(b) as number),
      1000,
    );
    const fitted = fitElo(names, table, { priorDraws: 0 });
    for (const [name, elo] of truth) expect(fitted.get(name)).toBeCloseTo(elo, 6);
  });

  it('recovers them from sampled games within the sampling error', () => {
    const rng = Random.fromSeed(1);
    const table = roundRobin((a, b, games) => {
      const p = expectedScore(truth.get(a) as number, truth.get(b) as number);
      let points = 0;
      // Some draws, keeping the expected score at p: win p - d/2, draw d, lose the rest.
      const d = 0.3 * Math.min(p, 1 - p);
      for (let g = 0; g < games; g++) {
        const u = rng.next();
        points += u < p - d / 2 ? 1 : u < p + d / 2 ? 0.5 : 0;
      }
      return points;
    }, 4000);
    const fitted = fitElo(names, table);
    for (const [name, elo] of truth)
      expect(Math.abs((fitted.get(name) as number) - elo)).toBeLessThan(25);
  });

  it('anchors random at 0, else the first agent, else the one asked for', () => {
    const table: PairingScore[] = [
      { a: 'x', b: 'random', games: 100, points: 76 },
      { a: 'y', b: 'x', games: 100, points: 50 },
    ];
    const anchored = fitElo(['x', 'y', 'random'], table);
    expect(anchored.get('random')).toBe(0);
    expect(anchored.get('x')).toBeGreaterThan(150);
    expect(anchored.get('y')).toBeCloseTo(anchored.get('x') as number, 6);
    const noRandom = fitElo(['x', 'y'], [{ a: 'y', b: 'x', games: 100, points: 64 }]);
    expect(noRandom.get('x')).toBe(0);
    expect(noRandom.get('y')).toBeGreaterThan(80);
    expect(
      fitElo(['x', 'y'], [{ a: 'y', b: 'x', games: 10, points: 5 }], { anchor: 'y' }).get('y'),
    ).toBe(0);
  });

  it('keeps ratings finite for perfect scores (prior draws), NaN for agents without games', () => {
    const fitted = fitElo(
      ['random', 'strong', 'idle'],
      [{ a: 'strong', b: 'random', games: 100, points: 100 }],
    );
    const strong = fitted.get('strong') as number;
    expect(Number.isFinite(strong)).toBe(true);
    // One virtual draw: 100.5 / 0.5 points, i.e. 400 log10(201).
    expect(strong).toBeCloseTo(400 * Math.log10(201), 6);
    expect(fitted.get('idle')).toBeNaN();
  });

  it('rejects pairings of unknown agents and an unknown anchor', () => {
    expect(() => fitElo(['a'], [{ a: 'a', b: 'b', games: 1, points: 1 }])).toThrow(/unknown agent/);
    expect(() => fitElo(['a', 'b'], [], { anchor: 'c' })).toThrow(/unknown Elo anchor/);
  });
});
