/** Gymnasium-style descriptions of what the environments take and give. */
import { core } from '../index.ts';
import { describeFeatures, type ObservationConfigInput, observationSize } from './observation.ts';

/** A box of float32 vectors: every observation x has low[i] <= x[i] <= high[i]. */
export interface BoxSpace {
  readonly type: 'box';
  readonly shape: readonly [number];
  readonly dtype: 'float32';
  readonly low: Float32Array;
  readonly high: Float32Array;
}

/** n discrete actions 0..n-1 (the pits of the mover's row, in sowing order). */
export interface DiscreteSpace {
  readonly type: 'discrete';
  readonly n: number;
}

/** The observation space of an encoder config; bounds are exact per feature (see docs/environment.md). */
export function observationSpace(cfg?: ObservationConfigInput | null): BoxSpace {
  const features = describeFeatures(cfg);
  const size = observationSize(cfg);
  return {
    type: 'box',
    shape: [size],
    dtype: 'float32',
    low: Float32Array.from(features, (f) => f.low),
    high: Float32Array.from(features, (f) => f.high),
  };
}

/** Six actions: the mover's pits 0..5 counted from their side. The same for every config. */
export function actionSpace(_cfg?: ObservationConfigInput | null): DiscreteSpace {
  return { type: 'discrete', n: core.ACTIONS };
}

/**
 * Where `x[offset .. offset + size)` leaves the box, the index of the first
 * offending feature (NaN counts as outside); -1 if it is inside.
 */
export function firstOutside(space: BoxSpace, x: ArrayLike<number>, offset = 0): number {
  const n = space.shape[0];
  for (let i = 0; i < n; i++) {
    const v = x[offset + i] as number;
    if (!(v >= (space.low[i] as number) && v <= (space.high[i] as number))) return i;
  }
  return -1;
}
