import type * as vega from 'vega';
import { chartFrame } from '../../display/chart-frame.ts';
import { lineWithPoints, referenceLine } from '../../display/chart-marks.ts';
import { writeChart } from '../../display/chart-render.ts';
import { wilsonInterval } from '../../eval/stats.ts';

export interface CurvePoint {
  readonly minutes: number;
  readonly iteration: number;
  readonly opponent: string;
  /** Score against the opponent: wins plus half the draws, over games. */
  readonly score: number;
  /** Games the score is from (older runs did not record it: no band then). */
  readonly games?: number;
}

/** The evaluation at the end of a run, marked on the curve. */
export interface FinalMark {
  readonly iteration: number;
  readonly rows: readonly {
    readonly opponent: string;
    readonly score: number;
    readonly games: number;
  }[];
}

/**
 * The curve's series of the policy's error rate against perfect play (the
 * accuracy benchmark's sample; lower is better), beside the scores.
 */
export const ERRORS_SERIES = 'perfect play: errors';

/**
 * A Vega chart of the score against each baseline over training: iterations
 * below, minutes above, the 50% line, a 95% Wilson band around each
 * evaluation, and the final evaluation (more games) as a diamond with its
 * interval.
 */
export function curveSpec(
  points: readonly CurvePoint[],
  title: string,
  final: FinalMark | null = null,
): vega.Spec {
  const band = (score: number, games: number | undefined) => {
    if (games === undefined || games <= 0) return { low: score, high: score };
    const [low, high] = wilsonInterval(score * games, games);
    return { low, high };
  };
  const values = points.map((p) => ({ ...p, ...band(p.score, p.games) }));
  const finals = (final?.rows ?? []).map((r) => ({
    ...r,
    iteration: final?.iteration ?? 0,
    ...band(r.score, r.games),
  }));
  const lastIteration = Math.max(1, ...values.map((p) => p.iteration), final?.iteration ?? 0);
  const lastMinutes = Math.max(0, ...values.map((p) => p.minutes));
  const finalGames = finals[0]?.games;
  const errors = points.some((p) => p.opponent === ERRORS_SERIES)
    ? `; '${ERRORS_SERIES}': share of moves that lose value (lower is better)`
    : '';
  return {
    ...chartFrame({ width: 640, height: 320, padding: 10 }),
    title: {
      text: title,
      offset: 14,
      subtitle:
        finalGames !== undefined
          ? `shaded: 95% interval of each evaluation; ◆ the final evaluation (${finalGames} games per baseline)${errors}`
          : `shaded: 95% interval of each evaluation${errors}`,
      fontSize: 14,
    },
    data: [
      { name: 'points', values },
      { name: 'final', values: finals },
    ],
    scales: [
      {
        name: 'x',
        type: 'linear',
        domain: [0, lastIteration],
        range: 'width',
        nice: false,
        padding: 10,
      },
      // Minutes above, spread linearly over the iterations (evaluations make them a little uneven).
      {
        name: 'minutes',
        type: 'linear',
        domain: [
          0,
          lastMinutes > 0
            ? (lastMinutes * lastIteration) / Math.max(1, ...values.map((p) => p.iteration))
            : 1,
        ],
        range: 'width',
        nice: false,
        padding: 10,
      },
      { name: 'y', type: 'linear', domain: [0, 1], range: 'height' },
      {
        name: 'color',
        type: 'ordinal',
        domain: {
          fields: [
            { data: 'points', field: 'opponent' },
            { data: 'final', field: 'opponent' },
          ],
        },
        range: 'category',
      },
    ],
    axes: [
      { orient: 'bottom', scale: 'x', title: 'iteration' },
      { orient: 'top', scale: 'minutes', title: 'training time (minutes)' },
      { orient: 'left', scale: 'y', title: 'score (win = 1, draw = 0.5)', grid: true, format: '%' },
    ],
    legends: [{ fill: 'color', title: 'against', orient: 'right', labelLimit: 240 }],
    marks: [
      ...referenceLine(0.5, '50%: even'),
      {
        type: 'group',
        from: { facet: { name: 'series', data: 'points', groupby: 'opponent' } },
        marks: [
          {
            type: 'area',
            from: { data: 'series' },
            encode: {
              enter: {
                x: { scale: 'x', field: 'iteration' },
                y: { scale: 'y', field: 'low' },
                y2: { scale: 'y', field: 'high' },
                fill: { scale: 'color', field: 'opponent' },
                fillOpacity: { value: 0.15 },
              },
            },
          },
          ...lineWithPoints({ data: 'series', x: 'iteration', y: 'score', color: 'opponent' }),
        ],
      },
      {
        type: 'rule',
        from: { data: 'final' },
        encode: {
          enter: {
            x: { scale: 'x', field: 'iteration' },
            y: { scale: 'y', field: 'low' },
            y2: { scale: 'y', field: 'high' },
            stroke: { scale: 'color', field: 'opponent' },
            strokeWidth: { value: 3 },
          },
        },
      },
      {
        type: 'symbol',
        from: { data: 'final' },
        encode: {
          enter: {
            x: { scale: 'x', field: 'iteration' },
            y: { scale: 'y', field: 'score' },
            shape: { value: 'diamond' },
            size: { value: 130 },
            fill: { scale: 'color', field: 'opponent' },
            stroke: { value: '#111' },
            strokeWidth: { value: 1.2 },
          },
        },
      },
    ],
  };
}

/** Renders the curve to `<base>.svg` and `<base>.png` (both written atomically). */
export async function writeLearningCurve(
  base: string,
  points: readonly CurvePoint[],
  title: string,
  final: FinalMark | null = null,
): Promise<void> {
  await writeChart(base, curveSpec(points, title, final));
}

/**
 * The curve's evaluation points recovered from a run's metrics.csv (each row
 * repeats the latest evaluation, so the points are the rows at which one was
 * made), to redraw the picture of a finished run without training it again.
 */
export function curveFromMetrics(
  csv: string,
  config: {
    readonly evalEvery: number;
    readonly evalGames: number;
    readonly evalOpponents: readonly string[];
    readonly evalAccuracyPositions?: number;
  },
): CurvePoint[] {
  const [header, ...lines] = csv.trim().split('\n');
  const columns = (header ?? '').split(',');
  const rows = lines.map((line) => {
    const cells = line.split(',');
    return (name: string): string => cells[columns.indexOf(name)] ?? '';
  });
  const last = rows.length - 1;
  return rows.flatMap((cell, i) => {
    const iteration = Number(cell('iteration'));
    if (iteration % config.evalEvery !== 0 && i !== last) return [];
    const series = [
      ...config.evalOpponents.map((opponent) => ({
        opponent,
        column: `eval/score_vs_${opponent}`,
        games: config.evalGames,
      })),
      {
        opponent: ERRORS_SERIES,
        column: 'eval/errors_vs_perfect_play',
        games: config.evalAccuracyPositions ?? 0,
      },
    ];
    return series.flatMap(({ opponent, column, games }) => {
      const score = cell(column);
      if (score === '' || games <= 0) return [];
      return [
        {
          minutes: Number(cell('elapsed_s')) / 60,
          iteration,
          opponent,
          score: Number(score),
          games,
        },
      ];
    });
  });
}
