/**
 * The expert-iteration presets the core benches measure: `quick` (`npm
 * start`) and `long` (the pretrained policy), or those BENCH_PRESETS names
 * (comma-separated) to keep a run short.
 */
export function benchPresets(): ('quick' | 'long')[] {
  const all = ['quick', 'long'] as const;
  const named = process.env.BENCH_PRESETS?.split(',');
  if (named === undefined) return [...all];
  const unknown = named.find((name) => !all.some((preset) => preset === name));
  if (unknown !== undefined) {
    throw new Error(`BENCH_PRESETS: ${unknown} is not one of ${all.join(', ')}`);
  }
  return all.filter((preset) => named.includes(preset));
}
