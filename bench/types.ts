/** One measurement, printed by the runner as one JSON line on stdout. */
export type Measurement = Record<string, unknown>;

/** Reports one measurement. */
export type Emit = (measurement: Measurement) => void;

/**
 * What every `bench/<name>.bench.ts` file exports:
 *
 *   export async function run(emit: Emit): Promise<void> {
 *     emit({ name: 'step', opsPerSec: 123456 });
 *   }
 */
export interface BenchModule {
  run(emit: Emit): Promise<void>;
}
