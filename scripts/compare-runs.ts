// Draws the errors against perfect play of several training runs, one line each,
// from their metrics.csv (no training):
//   npx tsx scripts/compare-runs.ts OUT_BASE [--target=FRACTION:LABEL] [--x=positions] [--extrapolate]
//       LABEL=RUN_DIR [LABEL=RUN_DIR ...]
// by training minute, or with --x=positions by the self-play positions the run
// had made (log scale), with a dashed line at the target (default: the
// pretrained policy's 5%). --extrapolate fits errors = a + b * log2(positions)
// to the evaluations of each run's second half (8 or more of them), prints the fall per doubling
// and how many positions that line would take to reach the target, and draws
// it there, or to 2 048 times the run's positions where it would take more
// (scripts/errors-trend.ts; docs/experiments/: docs/training-runs/exact-targets-quick,
// docs/training-runs/quick-budget with --target=0.1:"target for npm start's
// policy: 10%", docs/training-runs/errors-by-positions with --x=positions --extrapolate).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vega from 'vega';
import { chartFrame } from '../display/chart-frame.ts';
import { lineWithPoints, referenceLine, seriesLine } from '../display/chart-marks.ts';
import { writeChart } from '../display/chart-render.ts';
import { errorsTrend, type Point } from './errors-trend.ts';

const [outBase, ...rest] = process.argv.slice(2);
const targetArg = rest.find((arg) => arg.startsWith('--target='));
const xArg = rest.find((arg) => arg.startsWith('--x='));
const extrapolate = rest.includes('--extrapolate');
const runs = rest.filter((arg) => !arg.startsWith('--'));
const byPositions = (xArg ?? '--x=minutes') === '--x=positions';
if (
  outBase === undefined ||
  runs.length === 0 ||
  ![undefined, '--x=minutes', '--x=positions'].includes(xArg) ||
  (extrapolate && !byPositions)
) {
  console.error(
    'usage: tsx scripts/compare-runs.ts OUT_BASE [--target=FRACTION:LABEL] [--x=minutes|positions] [--extrapolate (with --x=positions)] LABEL=RUN_DIR [LABEL=RUN_DIR ...]',
  );
  process.exit(1);
}
const [targetText = '0.05', ...targetLabel] = (targetArg?.slice('--target='.length) ?? '').split(
  ':',
);
const target = Number(targetText === '' ? '0.05' : targetText);
if (!(target > 0 && target < 1))
  throw new Error(`--target must be a fraction in (0, 1), got '${targetText}'`);
const targetName =
  targetLabel.length > 0 ? targetLabel.join(':') : 'target for the pretrained policy: 5%';

/**
 * The evaluations of a run: the rows of the iterations the run evaluated at (every
 * `evalEvery`, from its config) and any other row whose errors changed (the last iteration's).
 */
function points(label: string, dir: string): Point[] {
  const [header, ...lines] = readFileSync(join(dir, 'metrics.csv'), 'utf8').trim().split('\n');
  const { evalEvery = 0 } = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
    evalEvery?: number;
  };
  const columns = (header ?? '').split(',');
  const at = (cells: string[], name: string) => cells[columns.indexOf(name)] ?? '';
  const out: Point[] = [];
  let last = '';
  for (const line of lines) {
    const cells = line.split(',');
    const errors = at(cells, 'eval/errors_vs_perfect_play');
    const evaluated = evalEvery > 0 && Number(at(cells, 'iteration')) % evalEvery === 0;
    if (errors === '' || (errors === last && !evaluated)) continue;
    last = errors;
    out.push({
      run: label,
      minutes: Number(at(cells, 'elapsed_s')) / 60,
      positions: Number(at(cells, 'samples')),
      errors: Number(errors),
    });
  }
  return out;
}

/** How many benchmark positions the run scored at each evaluation (its config; 200 before it was all of them). */
function sampleSize(dir: string): number {
  const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
    evalAccuracyPositions?: number;
  };
  return Math.min(config.evalAccuracyPositions ?? 200, 1001);
}

const parsed = runs.map((arg) => {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new Error(`'${arg}' is not LABEL=RUN_DIR`);
  return { label: arg.slice(0, eq), dir: arg.slice(eq + 1) };
});
const values = parsed.flatMap(({ label, dir }) => points(label, dir));
const sizes = [...new Set(parsed.map(({ dir }) => sampleSize(dir)))].sort((a, b) => a - b);
const positions = sizes.length === 1 ? `${sizes[0]}` : `${sizes[0]}-${sizes.at(-1)}`;

const fits: Point[] = [];
if (extrapolate) {
  for (const { label } of parsed) {
    const { summary, segment } = errorsTrend(
      label,
      values.filter((p) => p.run === label),
      target,
    );
    console.log(summary);
    if (segment !== null) fits.push(...segment);
  }
}
const xField = byPositions ? 'positions' : 'minutes';

const spec: vega.Spec = {
  ...chartFrame({ width: 640, height: 360, padding: 8 }),
  title: {
    text: `Errors of the policy alone against perfect play (${positions} benchmark positions)`,
  },
  data: [
    { name: 'points', values },
    { name: 'fits', values: fits },
  ],
  scales: [
    byPositions
      ? {
          name: 'x',
          type: 'log',
          base: 2,
          domain: {
            fields: [
              { data: 'points', field: 'positions' },
              { data: 'fits', field: 'positions' },
            ],
          },
          range: 'width',
          nice: true,
        }
      : {
          name: 'x',
          type: 'linear',
          domain: { data: 'points', field: 'minutes' },
          range: 'width',
          zero: true,
        },
    {
      name: 'y',
      type: 'linear',
      domain: { data: 'points', field: 'errors' },
      range: 'height',
      zero: true,
      nice: true,
    },
    { name: 'color', type: 'ordinal', domain: { data: 'points', field: 'run' }, range: 'category' },
  ],
  axes: [
    byPositions
      ? {
          orient: 'bottom',
          scale: 'x',
          title: 'self-play training positions made (log scale)',
          format: '.2s',
        }
      : { orient: 'bottom', scale: 'x', title: 'training minutes (evaluation included)' },
    { orient: 'left', scale: 'y', title: 'share of value-losing moves', format: '.0%' },
  ],
  legends: [{ fill: 'color', stroke: 'color', title: 'run', orient: 'right', labelLimit: 320 }],
  marks: [
    ...referenceLine(target, targetName),
    {
      type: 'group',
      from: { facet: { name: 'series', data: 'points', groupby: 'run' } },
      marks: lineWithPoints({ data: 'series', x: xField, y: 'errors', color: 'run', size: 30 }),
    },
    {
      // Each run's fitted line, from its second half to where it meets the target (or stops).
      type: 'group',
      from: { facet: { name: 'fit', data: 'fits', groupby: 'run' } },
      marks: [
        seriesLine(
          { data: 'fit', x: 'positions', y: 'errors', color: 'run' },
          { width: 1.5, dash: [3, 3] },
        ),
      ],
    },
  ],
};
const [svg, png] = await writeChart(outBase, spec);
console.log(`wrote ${svg} and ${png}`);
