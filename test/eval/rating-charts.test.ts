import { describe, expect, it } from 'vitest';
import { eloChartSpec, eloIntervals, scoreMatrixSpec } from '../../eval/rating-charts.ts';
import { runTournament } from '../../eval/tournament.ts';

const result = await runTournament({
  specs: ['random', 'greedy', 'minimax:2'],
  games: 20,
  seed: 5,
  workers: 0,
});

describe('Elo intervals', () => {
  it('hold each rating, narrow with more games, and the anchor is exact', async () => {
    const intervals = eloIntervals(result);
    expect(intervals.map((r) => r.agent).sort()).toEqual(['greedy', 'minimax:2', 'random']);
    for (const r of intervals) {
      expect(r.low).toBeLessThanOrEqual(r.elo);
      expect(r.high).toBeGreaterThanOrEqual(r.elo);
    }
    const anchor = intervals.find((r) => r.agent === result.anchor);
    expect(anchor?.low).toBe(anchor?.elo);
    const more = await runTournament({
      specs: ['random', 'greedy', 'minimax:2'],
      games: 80,
      seed: 5,
      workers: 0,
    });
    const width = (rs: typeof intervals, agent: string) => {
      const r = rs.find((x) => x.agent === agent);
      return (r?.high ?? 0) - (r?.low ?? 0);
    };
    expect(width(eloIntervals(more), 'greedy')).toBeLessThan(width(intervals, 'greedy'));
  });
});

describe('rating charts', () => {
  it('draw one dot and interval per agent, and both scores of every pairing', () => {
    const elo = eloChartSpec(result);
    const rows = ((elo.data ?? [])[0] as { values: { agent: string }[] }).values;
    expect(rows.map((r) => r.agent).sort()).toEqual(['greedy', 'minimax:2', 'random']);
    const matrix = scoreMatrixSpec(result);
    const cells = (
      (matrix.data ?? [])[0] as { values: { row: string; column: string; score: number }[] }
    ).values;
    expect(cells).toHaveLength(2 * result.pairings.length);
    for (const p of result.pairings) {
      const ab = cells.find((c) => c.row === p.a && c.column === p.b);
      const ba = cells.find((c) => c.row === p.b && c.column === p.a);
      expect(ab?.score).toBe(p.score);
      expect((ab?.score ?? 0) + (ba?.score ?? 0)).toBeCloseTo(1, 12);
    }
  });
});
