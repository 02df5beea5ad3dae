import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as vega from 'vega';
import { chartFrame } from '../../display/chart-frame.ts';
import { lineWithPoints } from '../../display/chart-marks.ts';
import { writeChart } from '../../display/chart-render.ts';
import { writeFileAtomic } from '../../files/atomic-write.ts';
import { csv, table } from '../report.ts';
import type { AccuracyReport } from './benchmark.ts';
import { PHASES } from './phases.ts';
import type { AccuracyCell, AgentAccuracy } from './score.ts';

const pct = (x: number, digits = 1): string =>
  Number.isNaN(x) ? '-' : `${(x * 100).toFixed(digits)}%`;
const interval = (ci: readonly [number, number]): string => `${pct(ci[0])}-${pct(ci[1])}`;

/** `12 of 340 (3.5%)`: the won positions an agent threw away. */
function thrown(cell: AccuracyCell): string {
  if (cell.won === 0) return '-';
  return `${cell.wonThrown} of ${cell.won} (${pct(cell.wonThrown / cell.won)})`;
}

/** The text `ayoayo accuracy` prints: a row per agent, the error rate overall and by phase. */
export function formatAccuracy(report: AccuracyReport): string {
  const first = report.agents[0];
  const counts = PHASES.map((p) => `${p}: ${first?.phases[p].positions ?? 0}`).join(', ');
  const rows = table(
    [
      'agent',
      'errors',
      '95% CI',
      ...PHASES.map((p) => `ply ${p}`),
      'won thrown away',
      'value sign',
      'ms/move',
    ],
    report.agents.map((a) => [
      a.agent,
      pct(a.overall.rate),
      interval(a.overall.ci),
      ...PHASES.map((p) => pct(a.phases[p].rate)),
      thrown(a.overall),
      a.value === null ? '-' : pct(a.value.rate),
      Number.isNaN(a.msPerMove) ? '-' : a.msPerMove.toFixed(1),
    ]),
  );
  const notes = [
    `Errors: moves whose exact value is below the position's (a win given up for a draw or a loss, a draw for a loss), of ${report.set.positions} critical positions of ${report.set.path} (seed ${report.set.seed}, ${report.set.solver}); positions per phase: ${counts}.`,
    'Won thrown away: won positions where the move gives up the win. Value sign: how often the sign of the agent’s own value estimate (a network’s value head) is the exact result, over won and lost positions.',
  ];
  for (const a of report.agents) {
    if (a.failures > 0) {
      notes.push(
        `${a.agent} gave no legal move in ${a.failures} position(s), counted as errors, e.g.: ${a.failure ?? ''}`,
      );
    }
  }
  return `${rows}\n\n${notes.join('\n')}\n`;
}

const csvColumns = [
  ['agent', 'agent'],
  ['phase', 'phase'],
  ['positions', 'positions'],
  ['errors', 'errors'],
  ['rate', 'error_rate'],
  ['ciLow', 'ci95_low'],
  ['ciHigh', 'ci95_high'],
  ['won', 'won'],
  ['wonThrown', 'won_thrown'],
  ['valuePositions', 'value_positions'],
  ['valueCorrect', 'value_correct'],
  ['msPerMove', 'ms_per_move'],
] as const;

function csvRows(agents: readonly AgentAccuracy[]): Record<string, string | number>[] {
  const round = (x: number, digits: number): number | string =>
    Number.isNaN(x) ? '' : Number(x.toFixed(digits));
  return agents.flatMap((a) =>
    [['all', a.overall] as const, ...PHASES.map((p) => [p, a.phases[p]] as const)].map(
      ([phase, cell]) => ({
        agent: a.agent,
        phase,
        positions: cell.positions,
        errors: cell.errors,
        rate: round(cell.rate, 5),
        ciLow: round(cell.ci[0], 5),
        ciHigh: round(cell.ci[1], 5),
        won: cell.won,
        wonThrown: cell.wonThrown,
        valuePositions: phase === 'all' && a.value !== null ? a.value.positions : '',
        valueCorrect: phase === 'all' && a.value !== null ? a.value.correct : '',
        msPerMove: phase === 'all' ? round(a.msPerMove, 3) : '',
      }),
    ),
  );
}

/** The report as plain JSON (NaN as null). */
export function accuracyJson(report: AccuracyReport): string {
  return `${JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' && Number.isNaN(value) ? null : value), 2)}\n`;
}

/** Error rate by phase, a line per agent, with 95% intervals (a square-root scale, so small rates stay apart). */
export function accuracyChartSpec(report: AccuracyReport): vega.Spec {
  const [line, points] = lineWithPoints({
    data: 'series',
    x: 'phase',
    xOffset: 'dx',
    y: 'rate',
    color: 'agent',
    size: 40,
  });
  // Agents side by side within a phase, so that their intervals do not hide each other.
  const spread = (i: number): number => (i - (report.agents.length - 1) / 2) * 7;
  const values = report.agents.flatMap((a, i) =>
    PHASES.filter((p) => a.phases[p].positions > 0).map((p) => ({
      agent: a.agent,
      dx: spread(i),
      phase: p,
      rate: a.phases[p].rate,
      low: a.phases[p].ci[0],
      high: a.phases[p].ci[1],
    })),
  );
  const top = Math.min(1, Math.max(0.05, ...values.map((v) => v.high)));
  return {
    ...chartFrame({ width: 560, height: 340 }),
    title: {
      text: 'Errors against perfect play, by game phase',
      subtitle: `${report.set.positions} critical positions of ${report.set.path}; bars: 95% intervals`,
      fontSize: 15,
    },
    data: [{ name: 'rates', values }],
    scales: [
      { name: 'x', type: 'point', domain: [...PHASES], range: 'width', padding: 0.5 },
      { name: 'y', type: 'sqrt', domain: [0, top], range: 'height', nice: true },
      {
        name: 'color',
        type: 'ordinal',
        domain: { data: 'rates', field: 'agent' },
        range: 'category',
      },
    ],
    axes: [
      { orient: 'bottom', scale: 'x', title: 'plies from the start' },
      {
        orient: 'left',
        scale: 'y',
        title: 'moves that lose value',
        grid: true,
        format: '.1%',
        values: [0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1].filter((v) => v <= top),
      },
    ],
    legends: [{ stroke: 'color', fill: 'color', title: 'agent', orient: 'right', labelLimit: 320 }],
    marks: [
      {
        type: 'group',
        from: { facet: { name: 'series', data: 'rates', groupby: 'agent' } },
        marks: [
          // The line under the intervals, the points over them.
          line,
          {
            type: 'rule',
            from: { data: 'series' },
            encode: {
              enter: {
                x: { scale: 'x', field: 'phase', offset: { field: 'dx' } },
                y: { scale: 'y', field: 'low' },
                y2: { scale: 'y', field: 'high' },
                stroke: { scale: 'color', field: 'agent' },
                strokeWidth: { value: 1.5 },
                strokeOpacity: { value: 0.6 },
              },
            },
          },
          points,
        ],
      },
    ],
  };
}

/**
 * Writes accuracy.csv (a row per agent and phase, `all` first), accuracy.json
 * and the chart accuracy.svg/.png into `dir`. Returns the paths written.
 */
export async function writeAccuracy(dir: string, report: AccuracyReport): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    [join(dir, 'accuracy.csv'), csv(csvColumns, csvRows(report.agents))],
    [join(dir, 'accuracy.json'), accuracyJson(report)],
  ];
  for (const [path, text] of files) writeFileAtomic(path, text);
  const chart = await writeChart(join(dir, 'accuracy'), accuracyChartSpec(report));
  return [...files.map(([path]) => path), ...chart];
}
