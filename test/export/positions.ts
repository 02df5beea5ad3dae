import { type ObservationConfig, ObservationEncoder } from '../../env/gym/observation.ts';
import { core, maskToBytes, Random, type Rules } from '../../env/index.ts';

/** Games longer than this restart (random games from the start last about 25 plies). */
const MAX_PLIES = 200;

/** Observations and legal masks of positions met in seeded random games. */
export interface PositionBatch {
  readonly count: number;
  readonly size: number;
  /** `count` rows of `size` floats. */
  readonly observations: Float32Array;
  /** `count` rows of 6: 1 legal, 0 illegal. */
  readonly masks: Float32Array;
  /** The fast-path states, one STATE_SIZE row each. */
  readonly states: Uint8Array;
}

/** Every unfinished position of random games from the start until `count` are collected. */
export function randomGamePositions(
  count: number,
  observation: ObservationConfig,
  rules: Rules,
  seed: number,
): PositionBatch {
  const encoder = new ObservationEncoder(observation, rules);
  const size = encoder.size;
  const observations = new Float32Array(count * size);
  const masks = new Float32Array(count * 6);
  const states = new Uint8Array(count * core.STATE_SIZE);
  const rng = Random.fromSeed(seed);
  const state = core.setInitial(new Uint8Array(core.STATE_SIZE));
  let n = 0;
  let plies = 0;
  while (n < count) {
    const mask = encoder.encode(state, observations, n * size);
    if (mask === 0 || plies >= MAX_PLIES) {
      core.setInitial(state);
      plies = 0;
      continue;
    }
    maskToBytes(mask, masks, n * 6);
    states.set(state, n * core.STATE_SIZE);
    n++;
    plies++;
    const action = core.nthAction(mask, rng.int(core.POPCOUNT[mask] as number));
    state.set(encoder.children.subarray(action * core.STATE_SIZE, (action + 1) * core.STATE_SIZE));
  }
  return { count, size, observations, masks, states };
}
