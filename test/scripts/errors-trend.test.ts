import { describe, expect, it } from 'vitest';
import {
  errorsTrend,
  FIT_POINTS,
  formatPositions,
  MAX_EXTRAPOLATION,
  type Point,
} from '../../scripts/errors-trend.ts';

/** A run of `count` evaluations at 1 M, 2 M, 4 M ... positions, errors from `errorsAt`. */
function run(count: number, errorsAt: (doublings: number) => number): Point[] {
  return Array.from({ length: count }, (_, k) => ({
    run: 'r',
    minutes: k,
    positions: 1e6 * 2 ** k,
    errors: errorsAt(k),
  }));
}

describe('errorsTrend', () => {
  it('recovers an exact line and where it meets the target', () => {
    // 30% at 1 M, one point fewer per doubling: 5% at 2^25 M positions.
    const series = run(20, (k) => 0.3 - 0.01 * k);
    const { summary, segment } = errorsTrend('exact', series, 0.05);
    expect(summary).toContain('1.00 points fewer errors per doubling');
    expect(segment).not.toBeNull();
    const [from, to] = segment as readonly [Point, Point];
    // The segment starts on the line at the second half's first evaluation (k = 10).
    expect(from.positions).toBe(1e6 * 2 ** 10);
    expect(from.errors).toBeCloseTo(0.2, 12);
    expect(to.errors).toBe(0.05);
    expect(to.positions / 1e6).toBeCloseTo(2 ** 25, 3);
    // 2^25 M is 2^6 = 64 times the last evaluation's 2^19 M.
    expect(summary).toContain(`${formatPositions(2 ** 25 * 1e6)} positions, 64x the run's`);
  });

  it('fits the second half only', () => {
    // A steep first half, then flat at 15%: the line is flat and never reaches 5%.
    const series = run(20, (k) => (k < 10 ? 0.3 - 0.015 * k : 0.15));
    const { summary, segment } = errorsTrend('flat', series, 0.05);
    expect(summary).toContain('0.00 points fewer errors per doubling');
    expect(summary).toContain('never at that rate');
    expect(segment).toBeNull();
  });

  it('stops a shallow line at the extrapolation limit and says where it stands there', () => {
    // A tenth of a point per doubling: 5% is 100 doublings away, far beyond 2^11.
    const series = run(16, (k) => 0.15 - 0.001 * k);
    const { summary, segment } = errorsTrend('shallow', series, 0.05);
    const last = series.at(-1) as Point;
    const [, to] = segment as readonly [Point, Point];
    expect(to.positions).toBe(last.positions * MAX_EXTRAPOLATION);
    expect(to.errors).toBeCloseTo(0.15 - 0.001 * (15 + 11), 12);
    expect(summary).toContain(`more than ${MAX_EXTRAPOLATION}x the run's`);
    expect(summary).toContain('it is at 12.4%');
  });

  it('refuses to fit too few evaluations', () => {
    const series = run(2 * FIT_POINTS - 2, (k) => 0.3 - 0.01 * k);
    const { summary, segment } = errorsTrend('short', series, 0.05);
    expect(summary).toBe(
      `short: ${FIT_POINTS - 1} evaluations in the second half, too few to fit a line (${FIT_POINTS} or more)`,
    );
    expect(segment).toBeNull();
  });
});

describe('formatPositions', () => {
  it('writes millions below 10 000 M and billions from there', () => {
    expect(formatPositions(432e6)).toBe('432 M');
    expect(formatPositions(9_999e6)).toBe('9999 M');
    expect(formatPositions(14.3e9)).toBe('14 G');
  });
});
