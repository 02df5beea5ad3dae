/** The benches' summaries of their rounds. */

/** The middle value (the upper of the two middle ones for an even count). */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** The median of the rounds' ratios xs[i] / ys[i], to three decimals. */
export function medianRatio(xs: readonly number[], ys: readonly number[]): number {
  return Number(median(xs.map((x, i) => x / (ys[i] as number))).toFixed(3));
}
