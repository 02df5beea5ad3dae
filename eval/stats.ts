/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/**
 * The Wilson score interval for a score of `points` out of `games`, draws
 * counting as half a point. It treats the score as a binomial proportion; draws
 * have less variance than a win/loss coin, so with draws the interval is a
 * little wider than it needs to be (conservative). Returns [0, 1] for no games.
 */
export function wilsonInterval(points: number, games: number, z = Z95): [number, number] {
  if (games <= 0) return [0, 1];
  const p = points / games;
  const z2 = z * z;
  const denominator = 1 + z2 / games;
  const center = (p + z2 / (2 * games)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / games + z2 / (4 * games * games))) / denominator;
  return [Math.max(0, center - half), Math.min(1, center + half)];
}
