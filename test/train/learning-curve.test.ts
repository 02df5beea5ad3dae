import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../eval/stats.ts';
import {
  type CurvePoint,
  curveFromMetrics,
  curveSpec,
  ERRORS_SERIES,
  writeLearningCurve,
} from '../../train/report/learning-curve.ts';

const scratch = mkdtempSync(join(tmpdir(), 'ayoayo-curve-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const POINTS: CurvePoint[] = [
  { minutes: 1, iteration: 10, opponent: 'random', score: 0.8, games: 100 },
  { minutes: 2, iteration: 20, opponent: 'random', score: 0.9, games: 100 },
  { minutes: 1, iteration: 10, opponent: 'greedy', score: 0.4, games: 100 },
  { minutes: 2, iteration: 20, opponent: 'greedy', score: 0.55, games: 100 },
];
const FINAL = {
  iteration: 20,
  rows: [
    { opponent: 'random', score: 0.95, games: 400 },
    { opponent: 'greedy', score: 0.6, games: 400 },
  ],
};

type Data = { name: string; values: Record<string, number | string>[] };

describe('the learning curve', () => {
  it('bands each evaluation with its Wilson interval and marks the final evaluation', () => {
    const spec = curveSpec(POINTS, 't', FINAL);
    const data = spec.data as Data[];
    const points = data.find((d) => d.name === 'points')?.values ?? [];
    const [low, high] = wilsonInterval(80, 100);
    expect(points[0]).toMatchObject({ iteration: 10, score: 0.8, low, high });
    const final = data.find((d) => d.name === 'final')?.values ?? [];
    expect(final).toHaveLength(2);
    expect(final[0]).toMatchObject({
      iteration: 20,
      score: 0.95,
      low: wilsonInterval(380, 400)[0],
    });
    // Iterations below, minutes above.
    expect(spec.axes?.map((a) => [a.orient, a.title])).toEqual(
      expect.arrayContaining([
        ['bottom', 'iteration'],
        ['top', 'training time (minutes)'],
      ]),
    );
  });

  it('draws the 50% line, both axes and the final diamonds into SVG and PNG', async () => {
    const base = join(scratch, 'curve');
    await writeLearningCurve(base, POINTS, 'a run', FINAL);
    const svg = readFileSync(`${base}.svg`, 'utf8');
    for (const text of ['50%: even', 'iteration', 'training time (minutes)', 'final evaluation'])
      expect(svg).toContain(text);
    expect(readFileSync(`${base}.png`).subarray(1, 4).toString()).toBe('PNG');
  });

  it('draws a run saved before games were recorded, without bands', () => {
    const spec = curveSpec([{ minutes: 1, iteration: 5, opponent: 'random', score: 0.7 }], 't');
    const points = (spec.data as Data[])[0]?.values ?? [];
    expect(points[0]).toMatchObject({ low: 0.7, high: 0.7 });
  });

  it("recovers the evaluations from a run's metrics.csv", () => {
    const csv = [
      'iteration,elapsed_s,eval/score_vs_random,eval/score_vs_greedy',
      '1,30,,',
      '2,60,0.5,0.25',
      '3,90,0.5,0.25',
      '4,120,0.75,0.5',
      '5,150,0.75,0.5',
    ].join('\n');
    const points = curveFromMetrics(csv, {
      evalEvery: 2,
      evalGames: 50,
      evalOpponents: ['random', 'greedy'],
    });
    expect(points.map((p) => [p.iteration, p.opponent, p.score, p.minutes, p.games])).toEqual([
      [2, 'random', 0.5, 1, 50],
      [2, 'greedy', 0.25, 1, 50],
      [4, 'random', 0.75, 2, 50],
      [4, 'greedy', 0.5, 2, 50],
      [5, 'random', 0.75, 2.5, 50],
      [5, 'greedy', 0.5, 2.5, 50],
    ]);
  });

  it("recovers the error rate against perfect play from metrics.csv, on the positions of the run's sample", () => {
    const csv = [
      'iteration,elapsed_s,eval/errors_vs_perfect_play,eval/score_vs_random',
      '1,30,,',
      '2,60,0.2,0.5',
      '3,90,0.2,0.5',
      '4,120,0.15,0.75',
    ].join('\n');
    const config = { evalEvery: 2, evalGames: 50, evalOpponents: ['random'] };
    const points = curveFromMetrics(csv, { ...config, evalAccuracyPositions: 200 });
    expect(points.map((p) => [p.iteration, p.opponent, p.score, p.games])).toEqual([
      [2, 'random', 0.5, 50],
      [2, ERRORS_SERIES, 0.2, 200],
      [4, 'random', 0.75, 50],
      [4, ERRORS_SERIES, 0.15, 200],
    ]);
    // A run without the sample (evalAccuracyPositions 0, or a config of earlier versions) has no such series.
    expect(curveFromMetrics(csv, config).map((p) => p.opponent)).toEqual(['random', 'random']);
  });
});
