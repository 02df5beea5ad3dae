import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { writeFileAtomic } from '../eval/atomic-write.ts';

export interface CurvePoint {
  readonly minutes: number;
  readonly iteration: number;
  readonly opponent: string;
  /** Score against the opponent: wins plus half the draws, over games. */
  readonly score: number;
}

/** A Vega line chart of the score against each baseline over training time. */
export function curveSpec(points: readonly CurvePoint[], title: string): vega.Spec {
  return {
    $schema: 'https://vega.github.io/schema/vega/v5.json',
    width: 640,
    height: 320,
    padding: 8,
    background: 'white',
    title: { text: title, fontSize: 14 },
    data: [{ name: 'points', values: points.map((p) => ({ ...p })) }],
    scales: [
      {
        name: 'x',
        type: 'linear',
        domain: { data: 'points', field: 'minutes' },
        range: 'width',
        nice: true,
        zero: true,
      },
      { name: 'y', type: 'linear', domain: [0, 1], range: 'height' },
      {
        name: 'color',
        type: 'ordinal',
        domain: { data: 'points', field: 'opponent' },
        range: 'category',
      },
    ],
    axes: [
      { orient: 'bottom', scale: 'x', title: 'training time (minutes)' },
      { orient: 'left', scale: 'y', title: 'score (win = 1, draw = 0.5)', grid: true, format: '%' },
    ],
    legends: [{ fill: 'color', title: 'against', orient: 'right' }],
    marks: [
      {
        type: 'group',
        from: { facet: { name: 'series', data: 'points', groupby: 'opponent' } },
        marks: [
          {
            type: 'line',
            from: { data: 'series' },
            encode: {
              enter: {
                x: { scale: 'x', field: 'minutes' },
                y: { scale: 'y', field: 'score' },
                stroke: { scale: 'color', field: 'opponent' },
                strokeWidth: { value: 2 },
              },
            },
          },
          {
            type: 'symbol',
            from: { data: 'series' },
            encode: {
              enter: {
                x: { scale: 'x', field: 'minutes' },
                y: { scale: 'y', field: 'score' },
                fill: { scale: 'color', field: 'opponent' },
                size: { value: 24 },
              },
            },
          },
        ],
      },
    ],
  };
}

/** Renders the curve to `<base>.svg` and `<base>.png` (both written atomically). */
export async function writeLearningCurve(
  base: string,
  points: readonly CurvePoint[],
  title: string,
): Promise<void> {
  const view = new vega.View(vega.parse(curveSpec(points, title)), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  writeFileAtomic(`${base}.svg`, svg);
  const png = new Resvg(svg, {
    fitTo: { mode: 'width', value: 1000 },
    font: { loadSystemFonts: true },
  })
    .render()
    .asPng();
  writeFileAtomic(`${base}.png`, png);
}
