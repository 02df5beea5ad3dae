/**
 * The straight line through a training run's late errors against perfect
 * play, on a log2 axis of the positions it had learned from, and where that
 * line would meet a target: scripts/compare-runs.ts --extrapolate.
 */

/** One evaluation of a run. */
export interface Point {
  readonly run: string;
  readonly minutes: number;
  /** Self-play positions the run had made by then (metrics.csv `samples`). */
  readonly positions: number;
  readonly errors: number;
}

/** Fewest evaluations in a run's second half for a line through them to say anything. */
export const FIT_POINTS = 8;

/**
 * How far beyond a run's own positions a line is drawn and its reach
 * reported: 2^11, eleven doublings; a flatter line would stretch the axis to
 * numbers no run could reach.
 */
export const MAX_EXTRAPOLATION = 2 ** 11;

/** A run's fitted line: what to print, and the dashed segment to draw (none when it does not fall). */
export interface ErrorsTrend {
  readonly summary: string;
  readonly segment: readonly [Point, Point] | null;
}

/** A count of positions for the printed summary: millions, or billions (G) from 10 000 M. */
export function formatPositions(count: number): string {
  return count >= 1e10 ? `${(count / 1e9).toFixed(0)} G` : `${(count / 1e6).toFixed(0)} M`;
}

/**
 * Fits errors = a + b * log2(positions) by least squares to the second half of
 * `series` (one run's evaluations in order) and says where it reaches `target`
 * (a fraction), within MAX_EXTRAPOLATION times the run's last positions.
 */
export function errorsTrend(label: string, series: readonly Point[], target: number): ErrorsTrend {
  const half = series.slice(Math.floor(series.length / 2));
  if (half.length < FIT_POINTS) {
    return {
      summary: `${label}: ${half.length} evaluations in the second half, too few to fit a line (${FIT_POINTS} or more)`,
      segment: null,
    };
  }
  const xs = half.map((p) => Math.log2(p.positions));
  const ys = half.map((p) => p.errors);
  const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const mx = mean(xs);
  const my = mean(ys);
  const slope =
    xs.reduce((acc, x, i) => acc + (x - mx) * ((ys[i] as number) - my), 0) /
    xs.reduce((acc, x) => acc + (x - mx) ** 2, 0);
  const first = half[0] as Point;
  const last = half.at(-1) as Point;
  const lineAt = (positions: number) => my + slope * (Math.log2(positions) - mx);
  const from: Point = { ...first, errors: lineAt(first.positions) };
  const runPositions = `the run's ${(last.positions / 1e6).toFixed(1)} M`;
  const limit = last.positions * MAX_EXTRAPOLATION;
  const head = `${label}: ${(-100 * slope).toFixed(2)} points fewer errors per doubling of positions over the second half; the line reaches ${(100 * target).toFixed(0)}% at`;
  if (!(slope < 0)) return { summary: `${head} never at that rate`, segment: null };
  const reach = 2 ** (mx + (target - my) / slope);
  if (reach > limit) {
    const errorsAtLimit = lineAt(limit);
    return {
      summary: `${head} more than ${MAX_EXTRAPOLATION}x ${runPositions} (at ${formatPositions(limit)} positions it is at ${(100 * errorsAtLimit).toFixed(1)}%)`,
      segment: [from, { ...from, positions: limit, errors: errorsAtLimit }],
    };
  }
  return {
    summary: `${head} ${formatPositions(reach)} positions, ${(reach / last.positions).toFixed(0)}x ${runPositions}`,
    segment: [from, { ...from, positions: reach, errors: target }],
  };
}
