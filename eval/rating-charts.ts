import { join } from 'node:path';
import type * as vega from 'vega';
import { chartFrame } from '../display/chart-frame.ts';
import { writeChart } from '../display/chart-render.ts';
import type { TournamentResult } from './tournament.ts';

/** An agent's Elo with a 95% interval (the anchor's interval is its fixed 0). */
export interface EloInterval {
  readonly agent: string;
  readonly elo: number;
  readonly low: number;
  readonly high: number;
}

const ELO_PER_NATURAL = 400 / Math.LN10;
const Z95 = 1.959963984540054;

/**
 * 95% intervals of the fitted Elo ratings from the Bradley-Terry likelihood's
 * curvature: an agent's rating is known to within 1/sqrt(sum over its
 * opponents of games * p * (1 - p)) natural units, p its expected score at the
 * fitted ratings, with the others held fixed (so it is a little narrow where
 * the opponents' ratings are uncertain too). The anchor has no interval.
 */
export function eloIntervals(result: TournamentResult): EloInterval[] {
  const elo = new Map(result.ratings.map((r) => [r.agent, r.elo]));
  const information = new Map<string, number>();
  for (const p of result.pairings) {
    const a = elo.get(p.a);
    const b = elo.get(p.b);
    if (a === undefined || b === undefined || Number.isNaN(a) || Number.isNaN(b)) continue;
    const expected = 1 / (1 + 10 ** ((b - a) / 400));
    const share = p.games * expected * (1 - expected);
    information.set(p.a, (information.get(p.a) ?? 0) + share);
    information.set(p.b, (information.get(p.b) ?? 0) + share);
  }
  return result.ratings
    .filter((r) => !Number.isNaN(r.elo))
    .map((r) => {
      if (r.agent === result.anchor) return { agent: r.agent, elo: r.elo, low: r.elo, high: r.elo };
      const info = information.get(r.agent) ?? 0;
      const half = info > 0 ? (Z95 * ELO_PER_NATURAL) / Math.sqrt(info) : Number.POSITIVE_INFINITY;
      return { agent: r.agent, elo: r.elo, low: r.elo - half, high: r.elo + half };
    });
}

/** A dot per agent at its Elo, with its 95% interval as a bar, highest first. */
export function eloChartSpec(result: TournamentResult): vega.Spec {
  const rows = eloIntervals(result).map((r) => ({
    ...r,
    // An interval with no bound (an agent that never lost or never won) is drawn to the edge.
    shownLow: Number.isFinite(r.low) ? r.low : r.elo - 800,
    shownHigh: Number.isFinite(r.high) ? r.high : r.elo + 800,
    label: `${Math.round(r.elo)}`,
  }));
  return {
    ...chartFrame({ width: 560, height: Math.max(120, 36 * rows.length) }),
    title: {
      text: 'Elo ratings with 95% intervals',
      subtitle: `${result.anchor} = 0; ${result.settings.gamesPerPairing} games per pairing`,
      fontSize: 15,
    },
    data: [{ name: 'ratings', values: rows }],
    scales: [
      {
        name: 'y',
        type: 'band',
        domain: {
          data: 'ratings',
          field: 'agent',
          sort: { field: 'elo', op: 'max', order: 'descending' },
        },
        range: 'height',
        padding: 0.4,
      },
      {
        name: 'x',
        type: 'linear',
        domain: {
          fields: [
            { data: 'ratings', field: 'shownLow' },
            { data: 'ratings', field: 'shownHigh' },
          ],
        },
        range: 'width',
        nice: true,
        zero: true,
        padding: 24,
      },
    ],
    axes: [
      { orient: 'bottom', scale: 'x', title: 'Elo', grid: true },
      {
        orient: 'left',
        scale: 'y',
        labelFontSize: 13,
        labelLimit: 320,
        ticks: false,
        domain: false,
      },
    ],
    marks: [
      {
        type: 'rule',
        from: { data: 'ratings' },
        encode: {
          enter: {
            x: { scale: 'x', field: 'shownLow' },
            x2: { scale: 'x', field: 'shownHigh' },
            y: { scale: 'y', field: 'agent', band: 0.5 },
            stroke: { value: '#4c78a8' },
            strokeWidth: { value: 4 },
            strokeCap: { value: 'round' },
            opacity: { value: 0.45 },
          },
        },
      },
      {
        type: 'symbol',
        from: { data: 'ratings' },
        encode: {
          enter: {
            x: { scale: 'x', field: 'elo' },
            y: { scale: 'y', field: 'agent', band: 0.5 },
            fill: { value: '#1f4e79' },
            size: { value: 110 },
          },
        },
      },
      {
        type: 'text',
        from: { data: 'ratings' },
        encode: {
          enter: {
            x: { scale: 'x', field: 'elo' },
            y: { scale: 'y', field: 'agent', band: 0.5, offset: -11 },
            text: { field: 'label' },
            align: { value: 'center' },
            fontSize: { value: 12 },
            fill: { value: '#222' },
          },
        },
      },
    ],
  };
}

/** The pairwise score matrix: row agent's score against column agent, as a heat map. */
export function scoreMatrixSpec(result: TournamentResult): vega.Spec {
  const order = result.ratings.map((r) => r.agent);
  const cells = result.pairings.flatMap((p) => [
    { row: p.a, column: p.b, score: p.score, games: p.games },
    { row: p.b, column: p.a, score: 1 - p.score, games: p.games },
  ]);
  const size = Math.max(200, 70 * order.length);
  return {
    ...chartFrame({ width: size, height: size }),
    title: {
      text: 'Score of each agent (row) against each other (column)',
      subtitle: 'win = 1, draw = 0.5; strongest first',
      fontSize: 15,
    },
    data: [
      {
        name: 'cells',
        values: cells.map((c) => ({ ...c, label: `${Math.round(c.score * 100)}%` })),
      },
      { name: 'self', values: order.map((agent) => ({ agent })) },
    ],
    scales: [
      { name: 'x', type: 'band', domain: order, range: 'width', padding: 0.04 },
      { name: 'y', type: 'band', domain: order, range: 'height', padding: 0.04 },
      {
        name: 'color',
        type: 'linear',
        domain: [0, 0.5, 1],
        range: ['#c0392b', '#f7f7f7', '#2e7d32'],
      },
    ],
    axes: [
      {
        orient: 'top',
        scale: 'x',
        labelAngle: -30,
        labelAlign: 'left',
        labelFontSize: 12,
        labelLimit: 320,
        ticks: false,
        domain: false,
      },
      {
        orient: 'left',
        scale: 'y',
        labelFontSize: 12,
        labelLimit: 320,
        ticks: false,
        domain: false,
      },
    ],
    legends: [
      { fill: 'color', title: 'score', format: '%', orient: 'right', gradientLength: size * 0.6 },
    ],
    marks: [
      {
        type: 'rect',
        from: { data: 'self' },
        encode: {
          enter: {
            x: { scale: 'x', field: 'agent' },
            width: { scale: 'x', band: 1 },
            y: { scale: 'y', field: 'agent' },
            height: { scale: 'y', band: 1 },
            fill: { value: '#e0e0e0' },
          },
        },
      },
      {
        type: 'rect',
        from: { data: 'cells' },
        encode: {
          enter: {
            x: { scale: 'x', field: 'column' },
            width: { scale: 'x', band: 1 },
            y: { scale: 'y', field: 'row' },
            height: { scale: 'y', band: 1 },
            fill: { scale: 'color', field: 'score' },
          },
        },
      },
      {
        type: 'text',
        from: { data: 'cells' },
        encode: {
          enter: {
            x: { scale: 'x', field: 'column', band: 0.5 },
            y: { scale: 'y', field: 'row', band: 0.5 },
            text: { field: 'label' },
            align: { value: 'center' },
            baseline: { value: 'middle' },
            fontSize: { value: 14 },
            fill: { value: '#111' },
          },
        },
      },
    ],
  };
}

/** Writes ratings.svg/.png (Elo with intervals) and scores.svg/.png (the heat map) into `dir`. */
export async function writeRatingCharts(dir: string, result: TournamentResult): Promise<string[]> {
  return [
    ...(await writeChart(join(dir, 'ratings'), eloChartSpec(result))),
    ...(await writeChart(join(dir, 'scores'), scoreMatrixSpec(result))),
  ];
}
